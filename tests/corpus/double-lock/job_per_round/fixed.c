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

/* Sums what the running jobs produced; each job's mutex is held while its fields are read. */
size_t pool_progress(struct pool *pool)
{
    size_t produced = 0;
    unsigned id;
    for (id = pool->done; id < pool->next; id++) {
        unsigned const slot = id & pool->mask;
        struct job *job = &pool->jobs[slot];
        pthread_mutex_lock(&job->mutex);
        if (!job->failed)
            produced += job->produced;
        pthread_mutex_unlock(&pool->jobs[slot].mutex);
    }
    return produced;
}
