#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* Creates an output file that must not exist yet; when fdopen fails the descriptor is still the
   caller's and leaks. */
FILE *create_output(const char *path)
{
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600); /* BUG(resource-leak) */
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    if (f == NULL)
        return NULL;
    return f;
}
