/* A constant-time comparison: the accumulator is wiped before returning so that no secret-dependent
 * value stays in memory; but a plain local's last store is one the compiler may drop. */
int verify_16(const unsigned char *x, const unsigned char *y)
{
    unsigned char d = 0;
    int i;
    int equal;

    for (i = 0; i < 16; i++)
        d |= x[i] ^ y[i];
    equal = (1 & ((d - 1) >> 8)) - 1;
    d = 0; /* BUG(dead-store) */
    return equal;
}
