#include <stdio.h>
#include "session.h"

void logout(struct session *s)
{
    session_end(s);
    printf("session %d closed\n", s->id); /* BUG(use-after-free) */
}
