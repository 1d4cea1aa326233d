long checksum(const unsigned char *p, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += p[i];
    return sum;
}
