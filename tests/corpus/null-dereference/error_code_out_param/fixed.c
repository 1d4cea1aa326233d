#include <stdio.h>
#include <stdlib.h>

enum { LINE_MAX_LEN = 256 };

/* Reads the first line of a file; *err says why there is none (0: there is one). */
static char *read_first_line(const char *path, int *err)
{
    FILE *f = fopen(path, "r");
    char *line;
    if (f == NULL) {
        *err = 1;
        return NULL;
    }
    line = malloc(LINE_MAX_LEN);
    if (line == NULL) {
        fclose(f);
        *err = 2;
        return NULL;
    }
    if (fgets(line, LINE_MAX_LEN, f) == NULL)
        line[0] = '\0';
    fclose(f);
    *err = 0;
    return line;
}

int config_version(const char *path)
{
    int err;
    int version;
    char *line = read_first_line(path, &err);
    if (err != 0)
        return -err;
    version = line[0] - '0';
    free(line);
    return version;
}
