#include <string.h>

struct opt { const char *name; int value; };

static struct opt *find_opt(struct opt *opts, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(opts[i].name, name) == 0)
            return &opts[i];
    return NULL;
}

int opt_value(struct opt *opts, int n, const char *name)
{
    struct opt *o = find_opt(opts, n, name);
    if (o == NULL)
        return -1;
    return o->value;
}
