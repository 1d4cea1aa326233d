#include <stdlib.h>
#include <string.h>

size_t trimmed_len(const char *s)
{
    char *copy = strdup(s);
    size_t n = strlen(copy); /* BUG(null-dereference) */
    while (n > 0 && copy[n - 1] == ' ')
        n--;
    free(copy);
    return n;
}
