#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Counts the words of a copy of s, skipping leading blanks first. */
int count_words(const char *s)
{
    char *p = strdup(s);
    if (p == NULL)
        return -1;
    while (isspace((unsigned char)*p))
        p++;
    int n = 0;
    for (char *t = strtok(p, " "); t != NULL; t = strtok(NULL, " "))
        n++;
    free(p); /* BUG(free-non-heap) */
    return n;
}
