#include <stdlib.h>

struct ctx { int refs; char *scratch; };

/* Releases the context and clears the caller's pointer. */
static void ctx_release(struct ctx **pc)
{
    struct ctx *c = *pc;
    free(c->scratch);
    free(c);
    *pc = NULL;
}

int ctx_done(struct ctx *c)
{
    int refs = c->refs;
    ctx_release(&c);
    return refs;
}
