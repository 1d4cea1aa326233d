#include <stdlib.h>

struct msg { char *body; int len; };
int msg_send(struct msg *m);

int ping(void)
{
    struct msg *m = malloc(sizeof *m);
    if (m == NULL)
        return -1;
    m->body = NULL;
    m->len = 0;
    if (msg_send(m) != 0) {
        free(m); /* BUG(double-free) */
        return -1;
    }
    return 0;
}
