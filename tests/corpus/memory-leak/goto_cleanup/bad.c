#include <stdio.h>
#include <stdlib.h>

int copy_file(const char *from, const char *to)
{
    int rc = -1;
    char *buf = NULL;
    FILE *in = fopen(from, "rb");
    if (in == NULL)
        return -1;
    buf = malloc(4096); /* BUG(memory-leak) */
    if (buf == NULL)
        goto out_in;
    FILE *out = fopen(to, "wb");
    if (out == NULL)
        goto out_in; /* forgets buf */
    size_t n;
    while ((n = fread(buf, 1, 4096, in)) > 0) {
        if (fwrite(buf, 1, n, out) != n)
            goto out_all;
    }
    rc = 0;
out_all:
    fclose(out);
    free(buf);
out_in:
    fclose(in);
    return rc;
}
