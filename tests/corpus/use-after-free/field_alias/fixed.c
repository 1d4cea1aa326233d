#include <stdlib.h>
#include <string.h>

struct parser { char *buf; size_t len; };

int parser_reset(struct parser *ps, size_t size)
{
    if (size < 16)
        return -1;
    char *fresh = malloc(size);
    if (fresh == NULL)
        return -1;
    memset(fresh, 0, size);
    ps->buf = fresh;
    ps->len = 0;
    return 0;
}

char first_char(struct parser *ps)
{
    char c = ps->buf[0];
    free(ps->buf);
    ps->buf = NULL;
    return c;
}
