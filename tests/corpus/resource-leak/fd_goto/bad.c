#include <fcntl.h>
#include <unistd.h>

int read_pid(const char *path, char *buf, size_t n)
{
    int rc = -1;
    int fd = open(path, O_RDONLY); /* BUG(resource-leak) */
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, buf, n - 1);
    if (got <= 0)
        goto out;
    buf[got] = '\0';
    rc = 0;
    close(fd);
out:
    return rc;
}
