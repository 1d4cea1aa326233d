/* A mutex left locked on an error path.
 *
 * Expected findings (a BUG(...) comment marks each line that ctlsp reports):
 *   line 20  lock-not-released  `table_lock` stays locked when the table is full
 */
#include <pthread.h>

#define CAPACITY 64

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static int table[CAPACITY];
static int used;

/* Appends `value`; returns its index or -1 when the table is full. */
int table_add(int value)
{
    int index;
    pthread_mutex_lock(&table_lock);
    if (used == CAPACITY)
        return -1; /* BUG(lock-not-released) forgets pthread_mutex_unlock */
    index = used++;
    table[index] = value;
    pthread_mutex_unlock(&table_lock);
    return index;
}
