#include <pthread.h>

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static int log_lines;

void log_line(int threaded)
{
    if (threaded)
        pthread_mutex_lock(&log_mu);
    log_lines++;
    if (threaded)
        pthread_mutex_unlock(&log_mu);
}
