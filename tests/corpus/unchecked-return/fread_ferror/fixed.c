#include <stdio.h>
#include <string.h>

struct header {
    char magic[4];
    unsigned version;
};

/* Reads a file header; the stream's error and end-of-file flags say whether the read worked. */
int read_header(FILE *f, struct header *h)
{
    memset(h, 0, sizeof *h);
    fread(h, sizeof *h, 1, f);
    if (ferror(f) || feof(f))
        return -1;
    return memcmp(h->magic, "KVS1", 4) == 0 ? 0 : -1;
}
