#include <stdlib.h>

#define NEW(T) ((T *)malloc(sizeof(T)))

struct timer { long deadline; int armed; };

struct timer *timer_new(long deadline)
{
    struct timer *t = NEW(struct timer);
    t->deadline = deadline; /* BUG(null-dereference) */
    t->armed = 0;
    return t;
}
