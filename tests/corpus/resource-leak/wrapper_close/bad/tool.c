#include <stdio.h>

int db_close(FILE *f);

int db_count(const char *path)
{
    FILE *f = fopen(path, "r"); /* BUG(resource-leak) */
    if (f == NULL)
        return -1;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        if (c == '\n')
            n++;
    if (ferror(f))
        return -1;
    db_close(f);
    return n;
}
