#include <stdlib.h>

/* Sums a freshly read sample block; the block is released too early. */
long sum_samples(int *samples, int n)
{
    long total = 0;
    free(samples);
    for (int i = 0; i < n; i++)
        total += samples[i]; /* BUG(use-after-free) */
    return total;
}
