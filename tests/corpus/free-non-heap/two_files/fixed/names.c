#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "names.h"

char *name_of(int uid)
{
    char buf[32];
    if (uid < 0)
        return NULL;
    snprintf(buf, sizeof buf, "user%d", uid);
    return strdup(buf);
}

void name_free(char *name)
{
    free(name);
}
