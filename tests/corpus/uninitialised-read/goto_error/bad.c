#include <stdio.h>
#include <stdlib.h>

int load(const char *path, long *size)
{
    int rc;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        goto out;
    if (fseek(f, 0, SEEK_END) != 0) {
        rc = -2;
        goto close;
    }
    *size = ftell(f);
    rc = 0;
close:
    fclose(f);
out:
    return rc; /* BUG(uninitialised-read) */
}
