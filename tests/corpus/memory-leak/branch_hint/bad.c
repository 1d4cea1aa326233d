#include <stdlib.h>
#include <string.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

struct buf {
    char *data;
    size_t len;
};

/* A buffer holding a copy of s; the error path of the second allocation forgets the first. */
struct buf *buf_from(const char *s)
{
    struct buf *b = malloc(sizeof *b); /* BUG(memory-leak) */
    if (unlikely(b == NULL))
        return NULL;
    b->len = strlen(s);
    b->data = malloc(b->len + 1);
    if (unlikely(b->data == NULL))
        return NULL;
    memcpy(b->data, s, b->len + 1);
    return b;
}

/* The first n bytes of s, or NULL. */
char *prefix(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (likely(p != NULL)) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}
