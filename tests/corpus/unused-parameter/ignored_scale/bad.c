#include <stddef.h>

struct image { size_t w, h; };

size_t image_bytes(const struct image *img, size_t depth) /* BUG(unused-parameter) */
{
    return img->w * img->h;
}
