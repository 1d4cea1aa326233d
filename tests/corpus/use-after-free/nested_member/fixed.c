#include <stdlib.h>

struct geom { int w, h; };
struct window { struct geom size; char *title; };

int window_close(struct window *w)
{
    int area = w->size.w * w->size.h;
    free(w->title);
    free(w);
    return area;
}
