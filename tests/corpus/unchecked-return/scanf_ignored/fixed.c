#include <stdio.h>

int read_dims(FILE *f, int *w, int *h)
{
    if (fscanf(f, "%d %d", w, h) != 2)
        return -1;
    return *w * *h;
}
