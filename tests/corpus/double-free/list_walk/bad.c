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

/* The walk forgets to move on when the block has no predecessor's data to keep. */
void blocks_free(struct block *b)
{
    while (b) {
        struct block *next = b->prev;
        free(b->data); /* BUG(double-free) */
        if (next)
            b = next;
    }
}
