#include <stdio.h>
#include <stdlib.h>

int read_block(FILE *f, size_t size, char **out)
{
    char *block = malloc(size);
    if (block == NULL)
        return -1;
    if (fread(block, 1, size, f) != size) {
        free(block);
        *out = NULL;
        return -1;
    }
    *out = block;
    return 0;
}
