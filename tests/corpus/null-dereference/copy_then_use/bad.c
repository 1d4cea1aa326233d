#include <stdlib.h>

struct hdr { int kind; int len; };

struct hdr *make_header(int kind)
{
    void *raw = malloc(sizeof(struct hdr));
    struct hdr *h = raw;
    h->kind = kind; /* BUG(null-dereference) */
    h->len = 0;
    return h;
}
