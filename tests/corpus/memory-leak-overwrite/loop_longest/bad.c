#include <stdlib.h>
#include <string.h>

/* Keeps the longest line seen; the old copy is dropped when a longer one comes. */
size_t longest(char **lines, int n)
{
    char *best = NULL;
    size_t best_len = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(lines[i]);
        if (len > best_len) {
            best = strdup(lines[i]); /* BUG(memory-leak-overwrite) */
            if (best == NULL)
                return 0;
            best_len = len;
        }
    }
    free(best);
    return best_len;
}
