#include <errno.h>
#include <unistd.h>

ssize_t write_all(int fd, const char *p, size_t n, int *err)
{
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, p + done, n - done);
        if (w < 0) {
            *err = errno;
            return -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}
