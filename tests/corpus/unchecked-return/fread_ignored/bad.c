#include <stdint.h>
#include <stdio.h>

uint32_t read_u32(FILE *f)
{
    unsigned char b[4] = {0};
    fread(b, 1, 4, f); /* BUG(unchecked-return) */
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
