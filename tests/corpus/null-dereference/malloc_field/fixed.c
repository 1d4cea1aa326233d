#include <stdlib.h>

struct point { double x, y; };

struct point *point_new(double x, double y)
{
    struct point *p = malloc(sizeof *p);
    if (p == NULL)
        return NULL;
    p->x = x;
    p->y = y;
    return p;
}
