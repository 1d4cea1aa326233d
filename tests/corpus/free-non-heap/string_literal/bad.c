#include <stdlib.h>
#include <string.h>

struct cfg { char *host; };

void cfg_set_host(struct cfg *c, const char *arg)
{
    char *host = "localhost";
    if (arg != NULL)
        host = strdup(arg);
    if (host == NULL)
        return;
    c->host = strdup(host);
    free(host); /* BUG(free-non-heap) */
}
