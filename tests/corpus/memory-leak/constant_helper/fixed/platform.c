#include <stdio.h>

/* This port has no memory-mapped files. */
int can_map_files(void)
{
    fputs("mapping unsupported\n", stderr);
    return 0;
}
