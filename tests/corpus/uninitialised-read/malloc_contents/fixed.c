#include <stdlib.h>

/* Histogram of byte values; calloc() starts every counter at zero. */
int most_common(const unsigned char *p, int n)
{
    int *count = calloc(256, sizeof *count);
    if (count == NULL)
        return -1;
    for (int i = 0; i < n; i++)
        count[p[i]]++;
    int best = 0;
    for (int b = 1; b < 256; b++)
        if (count[b] > count[best])
            best = b;
    free(count);
    return best;
}
