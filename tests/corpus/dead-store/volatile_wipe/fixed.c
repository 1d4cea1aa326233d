/* A constant-time comparison: the accumulator is wiped before returning so that no secret-dependent
 * value stays in memory; it is volatile, so the wipe is a store the program must make. */
int verify_16(const unsigned char *x, const unsigned char *y)
{
    volatile unsigned char d = 0;
    int i;
    int equal;

    for (i = 0; i < 16; i++)
        d |= x[i] ^ y[i];
    equal = (1 & ((d - 1) >> 8)) - 1;
    d = 0;
    return equal;
}
