#include <stdlib.h>

struct msg { char *body; int len; };

/* Sends the message and releases it: the caller must not touch it again. */
int msg_send(struct msg *m)
{
    int rc = m->len > 0 ? 0 : -1;
    free(m->body);
    free(m);
    return rc;
}
