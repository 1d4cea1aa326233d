#include <stdio.h>
#include <stdlib.h>

void *xmalloc_or_die(size_t n)
{
    void *p = malloc(n);
    if (p == NULL) {
        exit(1);
        fprintf(stderr, "out of memory\n"); /* BUG(unreachable-code) */
        return NULL;
    }
    return p;
}
