/* The pad, a block of an array type, is XORed into the output before the cipher fills it. */
#include <stddef.h>
#include <stdint.h>

typedef uint8_t DataBlock[16];

int encrypt_block(const uint8_t *in, uint8_t *out, size_t len);

int crypt_tail(const uint8_t *offset, const uint8_t *in, uint8_t *out, size_t len)
{
    DataBlock pad;
    size_t i;

    for (i = 0; i < len; i++)
        out[i] = in[i] ^ pad[i]; /* BUG(uninitialised-read) */
    return encrypt_block(offset, pad, sizeof(DataBlock));
}
