#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *format_id(int id)
{
    char *s = malloc(16);
    if (s != NULL)
        snprintf(s, 16, "id-%d", id);
    return s;
}

int print_ids(const int *ids, int n)
{
    for (int i = 0; i < n; i++) {
        char *s = format_id(ids[i]); /* BUG(memory-leak) */
        if (s == NULL)
            return -1;
        puts(s);
    }
    return 0;
}
