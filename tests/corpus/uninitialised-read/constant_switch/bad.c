enum order { LITTLE, BIG, MIXED };

static const enum order host_order = MIXED;

unsigned read16(const unsigned char *p)
{
    unsigned v;
    switch (host_order) {
    case LITTLE:
        v = p[0] | (p[1] << 8);
        break;
    case BIG:
        v = (p[0] << 8) | p[1];
        break;
    default:
        break;
    }
    return v; /* BUG(uninitialised-read) */
}
