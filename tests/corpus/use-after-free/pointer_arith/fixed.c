#include <stdlib.h>

int last_byte(unsigned char *buf, size_t len)
{
    if (len == 0) {
        free(buf);
        return -1;
    }
    int b = *(buf + len - 1);
    free(buf);
    return b;
}
