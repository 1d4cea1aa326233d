#include <pthread.h>

static void *worker(void *arg)
{
    return arg;
}

void start_workers(pthread_t *tids, int n)
{
    for (int i = 0; i < n; i++)
        pthread_create(&tids[i], NULL, worker, NULL); /* BUG(unchecked-return) */
}
