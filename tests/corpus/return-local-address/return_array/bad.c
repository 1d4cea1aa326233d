#include <stdio.h>

const char *describe(int code)
{
    char text[32];
    snprintf(text, sizeof text, "error %d", code);
    return text; /* BUG(return-local-address) */
}
