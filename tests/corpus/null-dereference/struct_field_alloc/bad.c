#include <stdlib.h>

struct table { int *slots; int size; };

int table_init(struct table *t, int size)
{
    t->size = size;
    t->slots = calloc((size_t)size, sizeof(int));
    t->slots[0] = -1; /* BUG(null-dereference) */
    return 0;
}
