#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* Creates an output file that must not exist yet; the stream owns the descriptor once fdopen
   succeeds, and it is closed here when fdopen fails. */
FILE *create_output(const char *path)
{
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    if (f == NULL) {
        close(fd);
        return NULL;
    }
    return f;
}
