#include <stdio.h>
#include "names.h"

void greet(int uid)
{
    char unknown[] = "stranger";
    char *name = name_of(uid);
    if (name == NULL)
        name = unknown;
    printf("hello, %s\n", name);
    name_free(name); /* BUG(free-non-heap) */
}
