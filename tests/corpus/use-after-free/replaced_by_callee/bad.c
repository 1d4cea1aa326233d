#include <stdlib.h>

struct pool {
    int size;
    char *items;
};

/* A pool of at least n items: the old one when it is big enough, else a new one (the old one freed). */
static struct pool *grow(struct pool *old, int n)
{
    struct pool *p;
    if (old != NULL && old->size >= n)
        return old;
    p = malloc(sizeof *p);
    if (p != NULL) {
        p->size = n;
        p->items = NULL;
    }
    free(old);
    return p;
}

/* Reads the size through the old pointer, which grow may have freed. */
int resized(struct pool *q, int n)
{
    struct pool *r = grow(q, n);
    if (r == NULL)
        return -1;
    n = q->size; /* BUG(use-after-free) */
    free(r);
    return n;
}
