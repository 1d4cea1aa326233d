/* The scale of a sample: set only for positive counts, read for an empty one too. */
int scaled(int count, int sample)
{
    int scale;
    if (__builtin_expect(count > 0, 1))
        scale = 1000 / count;
    if (__builtin_expect(count >= 0, 1))
        return sample * scale; /* BUG(uninitialised-read) */
    return -1;
}
