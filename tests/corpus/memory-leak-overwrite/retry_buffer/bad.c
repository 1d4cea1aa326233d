#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads one record into a fresh buffer; a short read retries with a bigger one. */
char *read_record(FILE *f, size_t hint)
{
    char *buf = malloc(hint);
    if (buf == NULL)
        return NULL;
    if (fread(buf, 1, hint, f) < hint) {
        buf = malloc(hint * 2); /* BUG(memory-leak-overwrite) */
        if (buf == NULL)
            return NULL;
        if (fread(buf, 1, hint * 2, f) == 0) {
            free(buf);
            return NULL;
        }
    }
    return buf;
}
