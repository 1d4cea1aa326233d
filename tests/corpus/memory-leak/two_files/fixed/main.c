#include <stdlib.h>
#include "buf.h"

int greet(void)
{
    struct buf *b = malloc(sizeof *b);
    if (b == NULL)
        return -1;
    b->data = malloc(64);
    b->len = 0;
    b->cap = 64;
    if (b->data == NULL) {
        free(b);
        return -1;
    }
    int rc = buf_append(b, "hello", 5);
    buf_free(b);
    return rc;
}
