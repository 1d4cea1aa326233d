#include <stdlib.h>
#include "buf.h"

int greet(void)
{
    struct buf *b = malloc(sizeof *b); /* BUG(memory-leak) */
    if (b == NULL)
        return -1;
    b->data = malloc(64);
    b->len = 0;
    b->cap = 64;
    if (b->data == NULL) {
        free(b);
        return -1;
    }
    if (buf_append(b, "hello", 5) != 0)
        return -1;
    buf_free(b);
    return 0;
}
