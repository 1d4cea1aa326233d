#include <stdlib.h>

struct vec { int *items; size_t len, cap; };

int vec_push(struct vec *v, int x)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 16;
        int *grown = realloc(v->items, cap * sizeof *grown);
        if (grown == NULL)
            return -1;
        grown[v->len] = x;
        v->items = grown;
        v->cap = cap;
        v->len++;
        return 0;
    }
    v->items[v->len++] = x;
    return 0;
}
