#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Opens a log for appending, private to its owner: the stream takes over the descriptor, so
   closing the stream closes it. */
FILE *open_log(const char *path)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0)
        return NULL;
    if (write(fd, "# log\n", 6) != 6) {
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "a");
    if (f == NULL) {
        close(fd);
        return NULL;
    }
    setvbuf(f, NULL, _IOLBF, 0);
    return f;
}
