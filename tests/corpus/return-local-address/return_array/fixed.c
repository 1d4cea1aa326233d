#include <stdio.h>

const char *describe(int code, char *text, size_t size)
{
    snprintf(text, size, "error %d", code);
    return text;
}
