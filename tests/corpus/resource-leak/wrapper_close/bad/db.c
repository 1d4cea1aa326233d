#include <stdio.h>

/* Closes the database file, reporting a failed flush. */
int db_close(FILE *f)
{
    int rc = fflush(f);
    fclose(f);
    return rc;
}
