#include <stdlib.h>

/* Appends v to a growing array; on failure the old block is still the caller's. */
int push(int *items, size_t *len, size_t *cap, int v, int **out)
{
    if (*len == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        int *grown = realloc(items, ncap * sizeof *items);
        if (grown == NULL)
            return -1;
        items = grown;
        *cap = ncap;
    }
    items[(*len)++] = v;
    *out = items;
    return 0;
}
