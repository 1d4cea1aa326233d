#include <string.h>

int count_fields(const char *line)
{
    int n = strlen(line) > 0; /* BUG(dead-store) */
    n = 1;
    for (const char *p = line; *p; p++)
        if (*p == ',')
            n++;
    return n;
}
