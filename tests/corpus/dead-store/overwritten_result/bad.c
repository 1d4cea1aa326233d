#include <stdio.h>

int flush_all(FILE *a, FILE *b)
{
    int rc;
    rc = fflush(a); /* BUG(dead-store) */
    rc = fflush(b);
    return rc;
}
