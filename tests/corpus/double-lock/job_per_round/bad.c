#include <pthread.h>
#include <stddef.h>

struct job {
    pthread_mutex_t mutex;
    size_t produced;
    int failed;
};

struct pool {
    struct job *jobs;
    unsigned mask;
    unsigned done, next;
};

/* Sums what the current job produced over several polls; a failed poll skips the unlock. */
size_t pool_progress(struct pool *pool)
{
    size_t produced = 0;
    unsigned id;
    struct job *job = &pool->jobs[pool->done & pool->mask];
    for (id = pool->done; id < pool->next; id++) {
        pthread_mutex_lock(&job->mutex); /* BUG(double-lock) */
        if (job->failed)
            continue;
        produced += job->produced;
        pthread_mutex_unlock(&job->mutex);
    }
    return produced; /* BUG(lock-not-released) */
}
