#include <stdlib.h>
#include <string.h>

struct image {
    int refcount;
    int width, height;
    unsigned char *pixels;
};

static struct image *image_new(int width, int height)
{
    struct image *im = calloc(1, sizeof(*im));
    if (!im)
        return NULL;
    im->pixels = calloc((size_t)width * height, 1);
    if (!im->pixels) {
        free(im);
        return NULL;
    }
    im->refcount = 1;
    im->width = width;
    im->height = height;
    return im;
}

/* Drops one reference; the last one frees the image. */
void image_delete(struct image *im)
{
    if (!im)
        return;
    if (--im->refcount > 0)
        return;
    free(im->pixels);
    free(im);
}

/* Sets every pixel to value (0 to 255). */
static int fill(struct image *im, int value)
{
    if (value < 0 || value > 255)
        return -1;
    memset(im->pixels, value, (size_t)im->width * im->height);
    return 0;
}

/* A copy of src filled with value, or NULL. */
struct image *filled_copy(const struct image *src, int value)
{
    struct image *out = image_new(src->width, src->height);
    if (!out)
        return NULL;
    memcpy(out->pixels, src->pixels, (size_t)src->width * src->height);
    if (fill(out, value) < 0) {
        image_delete(out);
        return NULL;
    }
    return out;
}
