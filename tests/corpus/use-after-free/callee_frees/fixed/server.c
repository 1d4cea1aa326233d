#include <stdio.h>
#include "session.h"

void logout(struct session *s)
{
    int id = s->id;
    session_end(s);
    printf("session %d closed\n", id);
}
