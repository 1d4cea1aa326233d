#include <stdio.h>
#include <stdlib.h>

/* A string hash of the first byte of every line. */
int hash_file(const char *path)
{
    char line[256];
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    int h = 0;
    while (fgets(line, sizeof line, f) != NULL)
        h = h * 31 + line[0];
    fclose(f);
    return h;
}
