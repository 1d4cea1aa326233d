#include <stdlib.h>
#include <string.h>

char *normalise(char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    if (out == NULL)
        return NULL;
    memcpy(out, s, n + 1);
    if (n == 0) {
        free(out);
        return out; /* BUG(return-freed-pointer) */
    }
    for (size_t i = 0; i < n; i++)
        if (out[i] == '\\')
            out[i] = '/';
    return out;
}
