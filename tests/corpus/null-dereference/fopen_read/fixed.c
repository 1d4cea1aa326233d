#include <stdio.h>

int first_line(const char *path, char *line, int n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *got = fgets(line, n, f);
    fclose(f);
    return got != NULL ? 0 : -1;
}
