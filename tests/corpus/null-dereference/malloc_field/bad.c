#include <stdlib.h>

struct point { double x, y; };

struct point *point_new(double x, double y)
{
    struct point *p = malloc(sizeof *p);
    p->x = x; /* BUG(null-dereference) */
    p->y = y;
    return p;
}
