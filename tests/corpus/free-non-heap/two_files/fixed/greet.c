#include <stdio.h>
#include "names.h"

void greet(int uid)
{
    char unknown[] = "stranger";
    char *name = name_of(uid);
    printf("hello, %s\n", name != NULL ? name : unknown);
    name_free(name);
}
