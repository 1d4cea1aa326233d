#include <stdlib.h>

/* Appends v to a growing array; on failure the old block is lost. */
int push(int *items, size_t *len, size_t *cap, int v, int **out)
{
    if (*len == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        items = realloc(items, *cap * sizeof *items); /* BUG(memory-leak-realloc) */
        if (items == NULL)
            return -1;
    }
    items[(*len)++] = v;
    *out = items;
    return 0;
}
