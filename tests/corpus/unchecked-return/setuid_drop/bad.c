#include <unistd.h>

void drop_privileges(uid_t uid, gid_t gid)
{
    setgid(gid); /* BUG(unchecked-return) */
    setuid(uid); /* BUG(unchecked-return) */
}
