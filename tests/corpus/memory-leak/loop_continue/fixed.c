#include <stdlib.h>
#include <string.h>

struct entry { char *key; struct entry *next; };

/* Counts the keys that are not empty, copying each one to normalise it first. */
int count_keys(const struct entry *e)
{
    int n = 0;
    for (; e != NULL; e = e->next) {
        char *k = strdup(e->key);
        if (k == NULL)
            return -1;
        if (k[0] != '\0')
            n++;
        free(k);
    }
    return n;
}
