#include <stdio.h>
#include <stdlib.h>
#include "fatal.h"

void fatal(const char *what)
{
    fprintf(stderr, "fatal: %s\n", what);
    exit(1);
}
