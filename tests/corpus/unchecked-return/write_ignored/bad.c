#include <string.h>
#include <unistd.h>

void send_greeting(int fd, const char *name)
{
    write(fd, "hello ", 6); /* BUG(unchecked-return) */
    write(fd, name, strlen(name)); /* BUG(unchecked-return) */
}
