#include <stdio.h>

int report(FILE *out, int errors, int warnings)
{
    int status;
    if (errors > 0)
        status = 2;
    fprintf(out, "%d warnings\n", warnings);
    if (errors <= 0)
        return warnings > 0;
    fprintf(out, "%d errors\n", errors);
    return status;
}
