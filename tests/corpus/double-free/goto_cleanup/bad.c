#include <stdio.h>
#include <stdlib.h>

int parse_header(FILE *f, int *version)
{
    int rc = -1;
    char *line = malloc(256);
    if (line == NULL)
        return -1;
    if (fgets(line, 256, f) == NULL)
        goto done;
    if (sscanf(line, "v%d", version) != 1) {
        free(line);
        goto done;
    }
    rc = 0;
done:
    free(line); /* BUG(double-free) */
    return rc;
}
