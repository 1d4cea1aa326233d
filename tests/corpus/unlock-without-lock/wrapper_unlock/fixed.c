#include <pthread.h>

struct account { pthread_mutex_t mu; long balance; };

static void acct_lock(struct account *a) { pthread_mutex_lock(&a->mu); }
static void acct_unlock(struct account *a) { pthread_mutex_unlock(&a->mu); }

int withdraw(struct account *a, long amount)
{
    if (amount <= 0)
        return -1;
    acct_lock(a);
    a->balance -= amount;
    acct_unlock(a);
    return 0;
}
