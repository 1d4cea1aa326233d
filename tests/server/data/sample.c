/* A small but realistic C file: buffers, files and locks — with non-ASCII text (é, 𝄞) in comments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

struct buffer {
    char *data;
    size_t len;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct buffer *buffer_new(size_t len)
{
    struct buffer *b = malloc(sizeof *b);
    if (b == NULL)
        return NULL;
    b->data = calloc(len, 1);
    if (!b->data) {
        free(b);
        return NULL;
    }
    b->len = len;
    return b;
}

void buffer_free(struct buffer *b)
{
    if (b) {
        free(b->data);
        free(b);
    }
}

int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int c, n = 0;
    if (!f)
        return -1;
    while ((c = fgetc(f)) != EOF) {
        if (c == '\n')
            n++;
    }
    fclose(f);
    return n;
}

char *join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *out = malloc(la + lb + 1); /* « joined » */
    memcpy(out, a, la);
    memcpy(out + la, b, lb + 1);
    return out;
}

int guarded_increment(int *counter)
{
    pthread_mutex_lock(&lock);
    if (*counter < 0) {
        pthread_mutex_unlock(&lock);
        return -1;
    }
    (*counter)++;
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(int argc, char **argv)
{
    struct buffer *b = buffer_new(64);
    char *s;
    for (int i = 1; i < argc; i++) {
        switch (argv[i][0]) {
        case '-':
            continue;
        default:
            s = join(argv[i], "𝄞");
            puts(s);
            free(s);
            break;
        }
    }
    buffer_free(b);
    return 0;
}
