#include <string.h>

int count_fields(const char *line)
{
    if (strlen(line) == 0)
        return 0;
    int n = 1;
    for (const char *p = line; *p; p++)
        if (*p == ',')
            n++;
    return n;
}
