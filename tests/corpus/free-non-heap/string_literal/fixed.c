#include <stdlib.h>
#include <string.h>

struct cfg { char *host; };

void cfg_set_host(struct cfg *c, const char *arg)
{
    const char *host = arg != NULL ? arg : "localhost";
    c->host = strdup(host);
}
