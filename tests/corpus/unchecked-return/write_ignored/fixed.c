#include <string.h>
#include <unistd.h>

int send_greeting(int fd, const char *name)
{
    size_t n = strlen(name);
    if (write(fd, "hello ", 6) != 6)
        return -1;
    if (write(fd, name, n) != (ssize_t)n)
        return -1;
    return 0;
}
