#include <stdlib.h>

struct block {
    struct block *prev;
    char *data;
};

static struct block *top;

/* Frees every block of the stack and its data, newest first. */
void blocks_reset(void)
{
    while (top) {
        free(top->data);
        struct block *below = top->prev;
        free(top);
        top = below;
    }
}

/* The same walk over a list handed in. */
void blocks_free(struct block *b)
{
    while (b) {
        struct block *next = b->prev;
        free(b->data);
        free(b);
        b = next;
    }
}
