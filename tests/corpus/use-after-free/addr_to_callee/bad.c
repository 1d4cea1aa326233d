#include <stdlib.h>

struct ctx { int refs; char *scratch; };

/* Releases the context and clears the caller's pointer... in the fixed version. */
static void ctx_release(struct ctx **pc)
{
    struct ctx *c = *pc;
    free(c->scratch);
    free(c);
}

int ctx_done(struct ctx *c)
{
    ctx_release(&c);
    return c->refs; /* BUG(use-after-free) */
}
