#include <stdlib.h>

int can_map_files(void)
{
    if (getenv("NO_MMAP") != NULL)
        return 0;
    return 1;
}
