#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t list_mu = PTHREAD_MUTEX_INITIALIZER;
struct item { int v; struct item *next; };
static struct item *items;

int list_push(int v)
{
    int rc = -1;
    pthread_mutex_lock(&list_mu);
    struct item *it = malloc(sizeof *it);
    if (it == NULL)
        goto out;
    it->v = v;
    it->next = items;
    items = it;
    rc = 0;
    pthread_mutex_unlock(&list_mu);
out:
    return rc; /* BUG(lock-not-released) */
}
