/* pycryptodome's raw_ocb.c: DataBlock is an array type, so handing `pad` to the cipher hands it
   the block's elements to fill; nothing reads an unset scalar. */
#include <stddef.h>
#include <stdint.h>

typedef uint8_t DataBlock[16];

int encrypt_block(const uint8_t *in, uint8_t *out, size_t len);

int crypt_tail(const uint8_t *offset, const uint8_t *in, uint8_t *out, size_t len)
{
    DataBlock pad;
    size_t i;
    int result;

    result = encrypt_block(offset, pad, sizeof(DataBlock));
    if (result)
        return result;
    for (i = 0; i < len; i++)
        out[i] = in[i] ^ pad[i];
    return 0;
}
