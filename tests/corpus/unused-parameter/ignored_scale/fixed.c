#include <stddef.h>

struct image { size_t w, h; };

size_t image_bytes(const struct image *img, size_t depth)
{
    return img->w * img->h * depth;
}

/* a callback must take the argument it does not need: (void) says so */
int on_event(void *ctx, int code)
{
    (void)ctx;
    return code;
}
