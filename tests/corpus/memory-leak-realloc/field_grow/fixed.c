#include <stdlib.h>
#include <string.h>

struct buf { char *data; size_t len, cap; };

/* Appends n bytes; on failure the buffer is emptied and its block freed. */
int buf_append(struct buf *b, const char *s, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = (b->len + n) * 2;
        char *tmp = realloc(b->data, cap);
        if (!tmp) {
            free(b->data);
            b->data = NULL;
            b->len = b->cap = 0;
            return -1;
        }
        b->data = tmp;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}
