#include <stdlib.h>
#include <unistd.h>

void process(const char *buf, ssize_t n);

void serve(int fd)
{
    for (;;) {
        char *buf = malloc(4096);
        if (buf == NULL)
            continue;
        ssize_t n = read(fd, buf, 4096);
        if (n <= 0) {
            free(buf);
            continue;
        }
        process(buf, n);
        free(buf);
    }
}
