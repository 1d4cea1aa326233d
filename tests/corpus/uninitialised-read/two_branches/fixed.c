#include <string.h>

int mode_flags(const char *mode)
{
    int flags = 0;
    if (strchr(mode, 'r') != NULL)
        flags = 1;
    if (strchr(mode, 'w') != NULL)
        flags = 2;
    if (strchr(mode, '+') != NULL)
        flags |= 4;
    return flags;
}
