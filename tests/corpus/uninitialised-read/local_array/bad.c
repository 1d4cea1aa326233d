int max_run(const int *xs, int n)
{
    int runs[16];
    for (int i = 0; i < n && i < 16; i++)
        if (xs[i] > 0)
            runs[i] = xs[i];
    int best = 0;
    for (int i = 0; i < n && i < 16; i++)
        if (runs[i] > best) /* BUG(uninitialised-read) */
            best = runs[i];
    return best;
}
