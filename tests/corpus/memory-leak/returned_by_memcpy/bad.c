#include <stdlib.h>
#include <string.h>

/* A copy of the first n bytes of s, terminated. */
char *copy_prefix(const char *s, size_t n)
{
    size_t len = strlen(s);
    if (n < len)
        len = n;
    char *result = malloc(len + 1); /* BUG(memory-leak) */
    if (!result)
        return NULL;
    if (len == 0)
        return strdup("");
    result[len] = '\0';
    return (char *)memcpy(result, s, len);
}
