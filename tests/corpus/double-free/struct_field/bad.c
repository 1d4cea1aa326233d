#include <stdlib.h>

struct conn { char *rbuf; char *wbuf; int fd; };

void conn_reset(struct conn *c)
{
    free(c->rbuf);
    free(c->wbuf);
}

void conn_close(struct conn *c)
{
    conn_reset(c);
    free(c->rbuf); /* BUG(double-free) */
    free(c);
}
