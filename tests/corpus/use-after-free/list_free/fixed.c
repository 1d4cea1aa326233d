#include <stdlib.h>

struct node { int v; struct node *next; };

void list_free(struct node *head)
{
    struct node *n = head;
    while (n != NULL) {
        struct node *next = n->next;
        free(n);
        n = next;
    }
}
