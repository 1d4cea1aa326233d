#include <stdio.h>

int copy_line(FILE *in, FILE *out)
{
    char line[256];
    if (fgets(line, sizeof line, in) == NULL)
        goto fail;
    if (fputs(line, out) < 0) {
        goto fail;
        fprintf(stderr, "write failed\n"); /* BUG(unreachable-code) */
    }
    return 0;
fail:
    return -1;
}
