#include <stdlib.h>

int last_byte(unsigned char *buf, size_t len)
{
    if (len == 0) {
        free(buf);
        return -1;
    }
    free(buf);
    return *(buf + len - 1); /* BUG(use-after-free) */
}
