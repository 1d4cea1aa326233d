#include <stdio.h>
#include <string.h>

int has_magic(const char *path)
{
    char head[4];
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    size_t got = fread(head, 1, 4, f);
    fclose(f);
    if (got != 4)
        return 0;
    return memcmp(head, "\x7f" "ELF", 4) == 0;
}
