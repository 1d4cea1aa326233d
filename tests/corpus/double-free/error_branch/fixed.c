#include <stdlib.h>
#include <string.h>

int store(char **slot, const char *v)
{
    char *copy = strdup(v);
    if (copy == NULL)
        return -1;
    if (strlen(copy) > 255) {
        free(copy);
        return -1;
    }
    if (*slot != NULL) {
        free(copy);
        return -1;
    }
    *slot = copy;
    return 0;
}
