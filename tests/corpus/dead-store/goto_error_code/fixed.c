#include <stdlib.h>

struct pair { int *a; int *b; };

int pair_init(struct pair *p, size_t n)
{
    int err = -12;
    p->a = malloc(n * sizeof(int));
    if (p->a == NULL)
        goto fail;
    p->b = malloc(n * sizeof(int));
    if (p->b == NULL)
        goto fail_a;
    return 0;
fail_a:
    free(p->a);
fail:
    return err;
}
