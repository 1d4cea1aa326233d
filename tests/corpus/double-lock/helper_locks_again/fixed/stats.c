#include <pthread.h>

pthread_mutex_t stats_mu = PTHREAD_MUTEX_INITIALIZER;
long stats_hits;

void stats_hit(void)
{
    pthread_mutex_lock(&stats_mu);
    stats_hits++;
    pthread_mutex_unlock(&stats_mu);
}
