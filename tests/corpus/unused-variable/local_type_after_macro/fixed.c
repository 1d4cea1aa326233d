/* CACHE_ALIGNED comes from a header that is not read (a compiler attribute): the members of the
   local union are no variables of the function. */
#include <string.h>

int checksum(const unsigned char *data, size_t n)
{
    static CACHE_ALIGNED union table { unsigned int word; unsigned char bytes[4]; } seeds[] = {
        { 0x9e3779b9u },
        { 0x7f4a7c15u },
    };
    unsigned int sum = 0;
    for (size_t i = 0; i < n; i++)
        sum = sum * 31u + data[i] + seeds[i % 2].bytes[i % 4];
    return (int)sum;
}
