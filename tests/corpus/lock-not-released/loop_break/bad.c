#include <pthread.h>

static pthread_mutex_t slots_mu = PTHREAD_MUTEX_INITIALIZER;
static int slots[32];

int claim_slot(void)
{
    for (int i = 0; i < 32; i++) {
        pthread_mutex_lock(&slots_mu);
        if (slots[i] == 0) {
            slots[i] = 1;
            return i; /* BUG(lock-not-released) */
        }
        pthread_mutex_unlock(&slots_mu);
    }
    return -1;
}
