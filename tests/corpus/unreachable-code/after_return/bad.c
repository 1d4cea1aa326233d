#include <stdlib.h>

int *make_table(size_t n)
{
    int *t = calloc(n, sizeof *t);
    return t;
    if (t != NULL) /* BUG(unreachable-code) */
        t[0] = -1;
}
