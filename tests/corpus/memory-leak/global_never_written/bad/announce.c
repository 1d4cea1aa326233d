#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int dry_run;

void announce(const char *name)
{
    char *line = malloc(strlen(name) + 8); /* BUG(memory-leak) */
    if (line == NULL)
        return;
    sprintf(line, "built %s", name);
    if (dry_run)
        return;
    puts(line);
    free(line);
}
