#include <stdlib.h>
#include <string.h>

struct parser { char *buf; size_t len; };

int parser_reset(struct parser *ps, size_t size)
{
    char *fresh = malloc(size);
    if (fresh == NULL)
        return -1;
    ps->buf = fresh;
    ps->len = 0;
    if (size < 16) {
        free(fresh);
        return -1;
    }
    memset(fresh, 0, size);
    return 0;
}

char first_char(struct parser *ps)
{
    char *b = ps->buf;
    free(b);
    return ps->buf[0]; /* BUG(use-after-free) */
}
