#include <stdlib.h>

struct hdr { int kind; int len; };

struct hdr *make_header(int kind)
{
    void *raw = malloc(sizeof(struct hdr));
    if (raw == NULL)
        return NULL;
    struct hdr *h = raw;
    h->kind = kind;
    h->len = 0;
    return h;
}
