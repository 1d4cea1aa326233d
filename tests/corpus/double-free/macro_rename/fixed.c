#include <stdlib.h>

#define XFREE free

struct img { unsigned char *px; int w, h; };

int img_load(struct img *im, int w, int h)
{
    im->w = w;
    im->h = h;
    unsigned char *px = calloc((size_t)w * (size_t)h, 1);
    if (px == NULL)
        return -1;
    if (w > 4096 || h > 4096) {
        XFREE(px);
        im->px = NULL;
        return -1;
    }
    im->px = px;
    return 0;
}
