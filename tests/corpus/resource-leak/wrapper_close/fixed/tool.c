#include <stdio.h>

int db_close(FILE *f);

int db_count(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        if (c == '\n')
            n++;
    int failed = ferror(f);
    db_close(f);
    return failed ? -1 : n;
}
