#include <stdlib.h>

struct node { int v; struct node *next; };

void list_free(struct node *head)
{
    struct node *n = head;
    while (n != NULL) {
        free(n);
        n = n->next; /* BUG(use-after-free) */
    }
}
