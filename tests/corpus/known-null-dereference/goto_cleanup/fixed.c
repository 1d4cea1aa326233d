#include <stdio.h>
#include <stdlib.h>

struct buf { char *data; size_t len; };

int count_lines(const char *path, size_t *lines)
{
    struct buf *b = NULL;
    FILE *f = NULL;
    int rc = -1;

    b = malloc(sizeof *b);
    if (b == NULL)
        goto out;
    b->data = malloc(4096);
    if (b->data == NULL)
        goto out;
    f = fopen(path, "r");
    if (f == NULL)
        goto out;
    *lines = 0;
    while ((b->len = fread(b->data, 1, 4096, f)) > 0)
        for (size_t i = 0; i < b->len; i++)
            *lines += b->data[i] == '\n';
    rc = 0;
out:
    if (f != NULL)
        fclose(f);
    if (b != NULL)
        free(b->data);
    free(b);
    return rc;
}
