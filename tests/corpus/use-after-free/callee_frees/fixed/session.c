#include <stdlib.h>
#include "session.h"

void session_end(struct session *s)
{
    free(s->user);
    free(s);
}
