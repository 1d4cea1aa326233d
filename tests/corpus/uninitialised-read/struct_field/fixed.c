struct range { int lo, hi; };

int range_width(const int *xs, int n)
{
    struct range r;
    r.lo = xs[0];
    r.hi = xs[0];
    for (int i = 1; i < n; i++) {
        if (xs[i] < r.lo)
            r.lo = xs[i];
        if (xs[i] > r.hi)
            r.hi = xs[i];
    }
    return r.hi - r.lo;
}
