#include <stdlib.h>

struct stats { long n; double sum; };

static void stats_destroy(struct stats *s)
{
    free(s);
}

double mean(const double *xs, long n)
{
    struct stats *st = calloc(1, sizeof *st);
    if (st == NULL)
        return 0.0;
    for (long i = 0; i < n; i++) {
        st->n++;
        st->sum += xs[i];
    }
    double m = st->n ? st->sum / (double)st->n : 0.0;
    stats_destroy(st);
    return m;
}
