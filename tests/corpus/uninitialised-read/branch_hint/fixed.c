/* The scale of a sample: set and read only for positive counts. */
int scaled(int count, int sample)
{
    int scale;
    if (__builtin_expect(count > 0, 1))
        scale = 1000 / count;
    if (__builtin_expect(count > 0, 1))
        return sample * scale;
    return -1;
}
