/* Double free and use after free, one of them through a helper function.
 *
 * Expected findings (a BUG(...) comment marks each line that ctlsp reports):
 *   line 31  double-free     `buf` is freed by release_buffer() and again here
 *   line 41  use-after-free  `node` is read after free(node)
 */
#include <stdlib.h>

struct buffer {
    char *data;
    size_t len;
};

struct node {
    int value;
    struct node *next;
};

void release_buffer(struct buffer *buf)
{
    free(buf->data);
    free(buf);
}

void finish(struct buffer *buf, int failed)
{
    if (failed) {
        release_buffer(buf);
    }
    /* ... */
    free(buf); /* BUG(double-free) */
}

/* Frees a list; reads the next pointer after the node is gone. */
void free_list(struct node *head)
{
    struct node *node = head;
    struct node *next;
    while (node != NULL) {
        free(node);
        next = node->next; /* BUG(use-after-free) */
        node = next;
    }
}
