#include <stdio.h>

/* Writes a report to the named file, or to stdout without a name; the file is closed unless the
 * stream is stdout, which a stream fopen opened never is. */
void write_report(const char *name, const int *counts, int n)
{
    FILE *out;
    int i;

    if (name == NULL || name[0] == '\0') {
        out = stdout;
    } else {
        out = fopen(name, "w");
        if (out == NULL) {
            fprintf(stderr, "cannot open %s\n", name);
            return;
        }
    }
    for (i = 0; i < n; i++)
        fprintf(out, "%d: %d\n", i, counts[i]);
    if (out == stdout)
        fflush(stdout);
    else
        fclose(out);
}
