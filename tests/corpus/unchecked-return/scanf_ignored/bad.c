#include <stdio.h>

int read_dims(FILE *f, int *w, int *h)
{
    fscanf(f, "%d %d", w, h); /* BUG(unchecked-return) */
    return *w * *h;
}
