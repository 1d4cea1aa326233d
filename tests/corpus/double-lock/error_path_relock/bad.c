#include <pthread.h>

static pthread_mutex_t queue_mu = PTHREAD_MUTEX_INITIALIZER;
static int queue_len;

int enqueue(int limit)
{
    pthread_mutex_lock(&queue_mu);
    if (queue_len >= limit) {
        pthread_mutex_lock(&queue_mu); /* BUG(double-lock) */
        queue_len = 0;
    }
    queue_len++;
    pthread_mutex_unlock(&queue_mu);
    return 0;
}
