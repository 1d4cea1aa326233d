#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Counts the words of a copy of s, skipping leading blanks first. */
int count_words(const char *s)
{
    char *copy = strdup(s);
    if (copy == NULL)
        return -1;
    char *p = copy;
    while (isspace((unsigned char)*p))
        p++;
    int n = 0;
    for (char *t = strtok(p, " "); t != NULL; t = strtok(NULL, " "))
        n++;
    free(copy);
    return n;
}
