#include <string.h>

int count_vowels(const char *s)
{
    int n = 0;
    size_t len; /* BUG(unused-variable) */
    for (; *s; s++)
        if (strchr("aeiou", *s) != NULL)
            n++;
    return n;
}
