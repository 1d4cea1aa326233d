#include <stdlib.h>
#include <string.h>

#define ALLOC(n) malloc(n)
#define RELEASE(p) free(p)

int checksum(const char *s)
{
    size_t n = strlen(s);
    unsigned char *tmp = ALLOC(n + 1);
    if (tmp == NULL)
        return -1;
    memcpy(tmp, s, n + 1);
    int sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += tmp[i];
    RELEASE(tmp);
    return sum;
}
