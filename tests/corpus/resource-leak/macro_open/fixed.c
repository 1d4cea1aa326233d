#include <stdio.h>

#define OPEN_LOG(path) fopen((path), "a")

int log_event(const char *path, const char *what, int level)
{
    if (level < 2)
        return 0;
    FILE *log = OPEN_LOG(path);
    if (log == NULL)
        return -1;
    fprintf(log, "%s\n", what);
    fclose(log);
    return 0;
}
