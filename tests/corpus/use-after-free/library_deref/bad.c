#include <stdlib.h>
#include <string.h>

/* Replaces the name of a record with a copy of a new one. */
int rename_to(char **name, const char *src)
{
    char *old = *name;
    free(old);
    size_t n = strlen(old); /* BUG(use-after-free) */
    char *copy = malloc(n + strlen(src) + 1);
    if (copy == NULL)
        return -1;
    memcpy(copy, src, strlen(src) + 1);
    *name = copy;
    return 0;
}
