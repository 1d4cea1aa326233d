/* The same kinds of code as the other examples, written correctly: ctlsp reports nothing here. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

char *duplicate(const char *s)
{
    size_t n = strlen(s);
    char *copy = malloc(n + 1);
    if (copy == NULL)
        return NULL;
    memcpy(copy, s, n + 1);
    return copy;
}

long count_bytes(const char *path)
{
    long total = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    while (fgetc(f) != EOF)
        total++;
    fclose(f);
    return total;
}

long bump(long by)
{
    long now;
    pthread_mutex_lock(&counter_lock);
    if (by < 0) {
        pthread_mutex_unlock(&counter_lock);
        return -1;
    }
    counter += by;
    now = counter;
    pthread_mutex_unlock(&counter_lock);
    return now;
}

int sum_first(const int *xs, int n)
{
    int sum = 0;
    int i;
    for (i = 0; i < n; i++)
        sum += xs[i];
    return sum;
}

void replace(char **slot, const char *s)
{
    char *fresh = duplicate(s);
    if (fresh == NULL)
        return;
    free(*slot);
    *slot = fresh;
}
