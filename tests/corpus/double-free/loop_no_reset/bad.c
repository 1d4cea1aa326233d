#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints the words that are not comments; cleans up the current copy on the way out. */
int print_words(const char **words, int n)
{
    char *cur = NULL;
    for (int i = 0; i < n; i++) {
        cur = strdup(words[i]);
        if (cur == NULL)
            break;
        if (cur[0] != '#')
            puts(cur);
        free(cur);
    }
    free(cur); /* BUG(double-free) */
    return 0;
}
