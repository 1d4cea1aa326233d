#include <stdio.h>
#include <string.h>

struct header {
    char magic[4];
    unsigned version;
};

/* Reads a file header; a short read leaves the header half filled and nobody notices. */
int read_header(FILE *f, struct header *h)
{
    memset(h, 0, sizeof *h);
    fread(h, sizeof *h, 1, f); /* BUG(unchecked-return) */
    return memcmp(h->magic, "KVS1", 4) == 0 ? 0 : -1;
}
