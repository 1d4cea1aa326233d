#include <stdlib.h>

int can_map_files(void);
int map_file(const char *path, char **out);

char *load(const char *path, size_t size)
{
    char *buf = malloc(size);
    char *mapped;
    if (buf == NULL)
        return NULL;
    if (can_map_files() && map_file(path, &mapped) == 0)
        return mapped;
    return buf;
}
