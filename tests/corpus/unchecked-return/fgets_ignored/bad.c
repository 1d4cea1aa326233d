#include <stdio.h>
#include <stdlib.h>

/* Reads the first line of a counter file: on an empty or unreadable file the buffer keeps
   whatever it held. */
long read_counter(FILE *f)
{
    char line[32];
    line[0] = '\0';
    fgets(line, sizeof line, f); /* BUG(unchecked-return) */
    return strtol(line, NULL, 10);
}
