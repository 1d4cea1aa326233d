#include <stdlib.h>
#include <string.h>

/* Joins two strings with a separator; the length check bails out after the allocation. */
char *join(const char *a, const char *b, size_t limit)
{
    size_t la = strlen(a), lb = strlen(b);
    char *out = malloc(la + lb + 2); /* BUG(memory-leak) */
    if (out == NULL)
        return NULL;
    if (la + lb + 1 > limit)
        return NULL;
    memcpy(out, a, la);
    out[la] = '/';
    memcpy(out + la + 1, b, lb + 1);
    return out;
}
