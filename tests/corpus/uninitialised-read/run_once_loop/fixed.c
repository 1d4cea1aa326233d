#define CHANNELS 3

int brightest(const unsigned char *pixel)
{
    int c, best;
    for (c = 0; c < CHANNELS; c++) {
        if (c == 0 || pixel[c] > best)
            best = pixel[c];
    }
    return best;
}
