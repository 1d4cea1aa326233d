#include <stdio.h>
#include <string.h>

int has_magic(const char *path)
{
    char head[4];
    FILE *f = fopen(path, "rb"); /* BUG(resource-leak) */
    if (f == NULL)
        return -1;
    if (fread(head, 1, 4, f) != 4)
        return 0;
    fclose(f);
    return memcmp(head, "\x7f" "ELF", 4) == 0;
}
