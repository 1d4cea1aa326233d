#include <stdio.h>
#include <stdlib.h>

/* Formats into a stack buffer when it fits, else into the heap. */
int print_path(const char *dir, const char *name, size_t need)
{
    char small[64];
    char *buf = small;
    if (need > sizeof small) {
        buf = malloc(need); /* BUG(memory-leak) */
        if (buf == NULL)
            return -1;
    }
    if (snprintf(buf, need, "%s/%s", dir, name) < 0)
        return -1;
    puts(buf);
    if (buf != small)
        free(buf);
    return 0;
}
