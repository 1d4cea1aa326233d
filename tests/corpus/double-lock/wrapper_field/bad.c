#include <pthread.h>

struct table { pthread_mutex_t mu; int n; };

static void table_lock(struct table *t) { pthread_mutex_lock(&t->mu); }
static void table_unlock(struct table *t) { pthread_mutex_unlock(&t->mu); }

int table_add(struct table *t, int grow)
{
    table_lock(t);
    if (grow)
        table_lock(t); /* BUG(double-lock) */
    t->n++;
    table_unlock(t);
    return t->n;
}
