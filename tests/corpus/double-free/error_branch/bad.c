#include <stdlib.h>
#include <string.h>

int store(char **slot, const char *v)
{
    char *copy = strdup(v);
    if (copy == NULL)
        return -1;
    if (strlen(copy) > 255) {
        free(copy);
        /* falls through to the common exit */
    }
    if (*slot != NULL) {
        free(copy); /* BUG(double-free) */
        return -1;
    }
    *slot = copy; /* BUG(return-freed-pointer) */
    return 0;
}
