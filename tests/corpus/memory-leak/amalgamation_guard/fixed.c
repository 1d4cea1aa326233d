#include <stdlib.h>
#include <string.h>

/* One translation unit made of several, each part guarded as a header is (an amalgamation). */
#ifndef NAMES_AMALGAMATION
#define NAMES_AMALGAMATION 1

/* Exactly one of the two is defined: which one, only the build knows. */
#if defined(_WIN32)
#define NAME_HEAP_WIN32 1
#else
#define NAME_HEAP_LIBC 1
#endif

char *win32_copy(const char *s);

char *copy_name(const char *s)
{
    char *copy;
#ifdef NAME_HEAP_WIN32
    copy = win32_copy(s);
#endif
#ifdef NAME_HEAP_LIBC
    copy = malloc(strlen(s) + 1);
    if (copy == NULL)
        return NULL;
    if (s[0] == '\0') {
        free(copy);
        return NULL;
    }
    strcpy(copy, s);
#endif
    return copy;
}

#endif /* NAMES_AMALGAMATION */
