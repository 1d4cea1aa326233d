#include <stdio.h>

#define OPEN_LOG(path) fopen((path), "a")

int log_event(const char *path, const char *what, int level)
{
    FILE *log = OPEN_LOG(path); /* BUG(resource-leak) */
    if (log == NULL)
        return -1;
    if (level < 2)
        return 0;
    fprintf(log, "%s\n", what);
    fclose(log);
    return 0;
}
