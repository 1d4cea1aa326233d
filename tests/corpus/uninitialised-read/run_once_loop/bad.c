int brightest(const unsigned char *pixel, int channels)
{
    int c, best;
    for (c = 0; c < channels; c++) {
        if (c == 0 || pixel[c] > best)
            best = pixel[c];
    }
    return best; /* BUG(uninitialised-read) */
}
