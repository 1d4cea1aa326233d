#include <stdio.h>

int first_line(const char *path, char *line, int n)
{
    FILE *f = fopen(path, "r");
    char *got = fgets(line, n, f); /* BUG(null-dereference) */
    fclose(f);
    return got != NULL ? 0 : -1;
}
