#include <pthread.h>

static void *worker(void *arg)
{
    return arg;
}

int start_workers(pthread_t *tids, int n)
{
    for (int i = 0; i < n; i++)
        if (pthread_create(&tids[i], NULL, worker, NULL) != 0)
            return i;
    return n;
}
