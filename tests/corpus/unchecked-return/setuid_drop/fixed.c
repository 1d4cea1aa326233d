#include <unistd.h>

int drop_privileges(uid_t uid, gid_t gid)
{
    if (setgid(gid) != 0)
        return -1;
    if (setuid(uid) != 0)
        return -1;
    return 0;
}
