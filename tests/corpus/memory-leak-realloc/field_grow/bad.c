#include <stdlib.h>
#include <string.h>

struct buf { char *data; size_t len, cap; };

/* Appends n bytes; on failure the buffer's old contents are lost. */
int buf_append(struct buf *b, const char *s, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = (b->len + n) * 2;
        b->data = realloc(b->data, cap); /* BUG(memory-leak-realloc) */
        if (!b->data)
            return -1;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}
