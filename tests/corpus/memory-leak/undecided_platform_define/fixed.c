#include <stdlib.h>
#include <string.h>

/* Only some platforms define HOMEGROWN_NAMES; the portable branch is the one most builds run. */
#if defined(__VXWORKS__) || defined(_WRS_KERNEL)
#define HOMEGROWN_NAMES 1
#endif

char *copy_name(const char *s)
{
#ifdef HOMEGROWN_NAMES
    static char one[64];
    strncpy(one, s, sizeof one - 1);
    return one;
#else
    char *copy = malloc(strlen(s) + 1);
    if (copy == NULL)
        return NULL;
    if (s[0] == '\0') {
        free(copy);
        return NULL;
    }
    strcpy(copy, s);
    return copy;
#endif
}
