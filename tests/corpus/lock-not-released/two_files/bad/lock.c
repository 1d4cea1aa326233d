#include <pthread.h>

pthread_mutex_t cfg_mu = PTHREAD_MUTEX_INITIALIZER;

void cfg_lock(void)
{
    pthread_mutex_lock(&cfg_mu);
}

void cfg_unlock(void)
{
    pthread_mutex_unlock(&cfg_mu);
}
