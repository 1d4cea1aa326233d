#include <pthread.h>

extern pthread_mutex_t stats_mu;
extern long stats_hits;
void stats_hit(void);

long cache_lookup(long key)
{
    pthread_mutex_lock(&stats_mu);
    long seen = stats_hits;
    pthread_mutex_unlock(&stats_mu);
    stats_hit();
    return seen + key;
}
