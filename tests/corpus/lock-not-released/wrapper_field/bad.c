#include <pthread.h>

struct counter { pthread_mutex_t mu; long value; long max; };

static void counter_lock(struct counter *c) { pthread_mutex_lock(&c->mu); }
static void counter_unlock(struct counter *c) { pthread_mutex_unlock(&c->mu); }

int counter_inc(struct counter *c)
{
    counter_lock(c);
    if (c->value == c->max)
        return -1; /* BUG(lock-not-released) */
    c->value++;
    counter_unlock(c);
    return 0;
}
