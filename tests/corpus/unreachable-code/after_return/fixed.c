#include <stdlib.h>

#define DEBUG 0

int kind_of(int c)
{
    switch (c) {
    case 'a':
        return 1;
    case 'b':
        return 2;
    default:
        return 0;
    }
    if (DEBUG)
        return -1;
    return 0;
}
