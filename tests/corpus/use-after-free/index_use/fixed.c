#include <stdlib.h>

/* Sums a freshly read sample block, then releases it. */
long sum_samples(int *samples, int n)
{
    long total = 0;
    for (int i = 0; i < n; i++)
        total += samples[i];
    free(samples);
    return total;
}
