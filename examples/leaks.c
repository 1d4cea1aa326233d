/* Leaks: memory and a FILE handle that are not released on every path.
 *
 * Expected findings (a BUG(...) comment marks each line that ctlsp reports):
 *   line 17  memory-leak    'copy' leaks when the line is empty
 *   line 32  resource-leak  'f' is not closed when reading fails
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Returns the first word of `line`, or NULL for an empty line. */
char *first_word(const char *line)
{
    size_t n = strlen(line);
    char *copy;
    size_t i;
    copy = malloc(n + 1); /* BUG(memory-leak) */
    if (copy == NULL)
        return NULL;
    if (n == 0)
        return NULL; /* forgets to free `copy` */
    for (i = 0; i < n && line[i] != ' '; i++)
        copy[i] = line[i];
    copy[i] = '\0';
    return copy;
}

/* Reads the first byte of a file, or -1. */
int first_byte(const char *path)
{
    int c;
    FILE *f = fopen(path, "rb"); /* BUG(resource-leak) */
    if (f == NULL)
        return -1;
    c = fgetc(f);
    if (c == EOF)
        return -1; /* forgets fclose(f) */
    fclose(f);
    return c;
}
