#include <stdlib.h>

struct node { int v; struct node *next; };

void drop_head(struct node **list)
{
    struct node *old = *list;
    struct node *head = old;
    *list = head->next;
    free(head);
}
