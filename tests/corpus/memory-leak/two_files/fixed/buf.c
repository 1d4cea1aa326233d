#include <stdlib.h>
#include <string.h>
#include "buf.h"

void buf_free(struct buf *b)
{
    if (b == NULL)
        return;
    free(b->data);
    free(b);
}

int buf_append(struct buf *b, const char *s, size_t n)
{
    if (b->len + n > b->cap)
        return -1;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}
