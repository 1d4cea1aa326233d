/* The caller may hand in a palette; without one a default is made here, and only that one is
   freed at the end, but a size the caller cannot use returns before that free. */
#include <stdlib.h>

struct palette {
    int size;
    unsigned char rgb[768];
};

static struct palette *palette_new(void)
{
    return calloc(1, sizeof(struct palette));
}

static void palette_free(struct palette *p)
{
    free(p);
}

int palette_size(struct palette *inpal, int *out)
{
    struct palette *pal = inpal;
    if (pal != NULL) {
        if (pal->size == 0)
            return -1;
    } else {
        pal = palette_new(); /* BUG(memory-leak) */
        if (pal)
            pal->size = 256;
    }
    if (!pal)
        return -2;
    *out = pal->size;
    if (*out > 255)
        return -3;
    if (pal != inpal)
        palette_free(pal);
    return 0;
}
