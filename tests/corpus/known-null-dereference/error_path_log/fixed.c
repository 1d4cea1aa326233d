#include <stdio.h>
#include <stdlib.h>

struct parser { FILE *in; int line; };

struct parser *parser_open(const char *path)
{
    struct parser *p = malloc(sizeof *p);
    if (p == NULL) {
        fprintf(stderr, "%s: out of memory\n", path);
        return NULL;
    }
    p->in = NULL;
    p->line = 0;
    return p;
}
