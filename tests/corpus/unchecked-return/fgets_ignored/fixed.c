#include <stdio.h>
#include <stdlib.h>

/* Reads the first line of a counter file; an empty or unreadable file counts as zero. */
long read_counter(FILE *f)
{
    char line[32];
    if (fgets(line, sizeof line, f) == NULL)
        return 0;
    return strtol(line, NULL, 10);
}
