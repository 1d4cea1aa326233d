#include <stdlib.h>

struct geom { int w, h; };
struct window { struct geom size; char *title; };

int window_close(struct window *w)
{
    free(w->title);
    free(w);
    return w->size.w * w->size.h; /* BUG(use-after-free) */
}
