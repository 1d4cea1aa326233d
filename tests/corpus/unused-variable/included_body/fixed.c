/* A cipher core in the style of libsodium's SIMD code: the rounds are a file included into the
 * function body, which reads and writes the function's locals by name. */
#include <stdint.h>

uint32_t core(const uint32_t *x)
{
    uint32_t a, b, c, d;
#include "quarter_round.inc"
    return d;
}
