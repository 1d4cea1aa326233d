#include <stdlib.h>
#include <unistd.h>
#include "buffer.h"

struct buffer *buffer_new(size_t cap)
{
    struct buffer *b = malloc(sizeof *b);
    if (b == NULL)
        return NULL;
    b->data = malloc(cap);
    if (b->data == NULL) {
        free(b);
        return NULL;
    }
    b->len = 0;
    b->cap = cap;
    return b;
}

void buffer_free(struct buffer *b)
{
    if (b == NULL)
        return;
    free(b->data);
    free(b);
}

int buffer_fill(struct buffer *b, int fd)
{
    ssize_t n = read(fd, b->data, b->cap);
    if (n < 0)
        return -1;
    b->len = (size_t)n;
    return 0;
}
