#include <pthread.h>

static pthread_mutex_t jobs_mu = PTHREAD_MUTEX_INITIALIZER;
static int jobs;

/* Called with jobs_mu held; drops it. */
static void finish_locked(void)
{
    jobs--;
    pthread_mutex_unlock(&jobs_mu);
}

void job_done(void)
{
    pthread_mutex_lock(&jobs_mu);
    finish_locked();
}
