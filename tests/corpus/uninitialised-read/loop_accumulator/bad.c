long checksum(const unsigned char *p, int n)
{
    long sum;
    for (int i = 0; i < n; i++)
        sum += p[i]; /* BUG(uninitialised-read) */
    return sum;
}
