#include <pthread.h>

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static int pool_free;

int pool_take(void)
{
    pthread_mutex_lock(&pool_mu);
    if (pool_free == 0) {
        pthread_mutex_unlock(&pool_mu);
        goto fail;
    }
    pool_free--;
    pthread_mutex_unlock(&pool_mu);
    return 0;
fail:
    pthread_mutex_unlock(&pool_mu); /* BUG(unlock-without-lock) */
    return -1;
}
