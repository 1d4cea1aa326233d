#include <stddef.h>
#include "buffer.h"

size_t read_record(int fd, size_t small, size_t big)
{
    size_t got;
    struct buffer *b = buffer_new(small);
    if (b == NULL)
        return 0;
    if (buffer_fill(b, fd) != 0 || b->len == small)
        b = buffer_new(big); /* BUG(memory-leak-overwrite) */
    if (b == NULL)
        return 0;
    got = b->len;
    buffer_free(b);
    return got;
}
