#include <stdio.h>
#include <stdlib.h>

void *xmalloc_or_die(size_t n)
{
    void *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
        return NULL; /* defensive: not reported */
    }
    return p;
}
