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

/* The pointer takes the pool grow returns, so only that one is read and freed. */
int resized(struct pool *q, int n)
{
    q = grow(q, n);
    if (q == NULL)
        return -1;
    n = q->size;
    free(q);
    return n;
}
