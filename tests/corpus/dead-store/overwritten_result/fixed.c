#include <stdio.h>

int flush_all(FILE *a, FILE *b)
{
    int rc;
    rc = fflush(a);
    if (fflush(b) != 0)
        rc = -1;
    return rc;
}
