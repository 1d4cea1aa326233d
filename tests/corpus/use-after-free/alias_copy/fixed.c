#include <stdlib.h>

struct item { int key; struct item *next; };

int pop_key(struct item **stack)
{
    struct item *top = *stack;
    struct item *it = top;
    *stack = top->next;
    int key = it->key;
    free(top);
    return key;
}
