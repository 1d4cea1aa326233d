#include <stdlib.h>

/* Histogram of byte values; the counters start from whatever malloc() returned. */
int most_common(const unsigned char *p, int n)
{
    int *count = malloc(256 * sizeof *count);
    if (count == NULL)
        return -1;
    for (int i = 0; i < n; i++)
        count[p[i]]++; /* BUG(uninitialised-read) */
    int best = 0;
    for (int b = 1; b < 256; b++)
        if (count[b] > count[best])
            best = b;
    free(count);
    return best;
}
