#include <pthread.h>

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static int registry[64];

int reg_set(int slot, int value)
{
    pthread_mutex_lock(&reg_mu);
    if (slot < 0 || slot >= 64)
        return -1; /* BUG(lock-not-released) */
    registry[slot] = value;
    pthread_mutex_unlock(&reg_mu);
    return 0;
}
