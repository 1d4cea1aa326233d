#include <errno.h>
#include <unistd.h>

ssize_t write_all(int fd, const char *p, size_t n)
{
    size_t done = 0;
    int saved; /* BUG(unused-variable) */
    while (done < n) {
        ssize_t w = write(fd, p + done, n - done);
        if (w < 0) {
            saved = errno; /* BUG(dead-store) */
            return -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}
