/* A hash round in the style of BLAKE2b's SIMD code: ROUND(r) is two statements, each a macro whose
 * name is pasted from the round number; those macros read m0..m2 by name, never the loaded m3. */
#include <stdint.h>

#define LOAD_MSG_0_1(b) do { b = m0 ^ m1; } while (0)
#define LOAD_MSG_0_2(b) do { b = m2 ^ m0; } while (0)
#define LOAD_MSG_1_1(b) do { b = m1 ^ m0; } while (0)
#define LOAD_MSG_1_2(b) do { b = m1 ^ m2; } while (0)
#define MIX(h, b) do { h = (h << 7 | h >> 57) + (b); } while (0)
#define ROUND(r)            \
    LOAD_MSG_##r##_1(b0);   \
    MIX(h, b0);             \
    LOAD_MSG_##r##_2(b0);   \
    MIX(h, b0);

uint64_t compress(const uint64_t block[4], uint64_t h)
{
    uint64_t b0;
    const uint64_t m0 = block[0];
    const uint64_t m1 = block[1];
    const uint64_t m2 = block[2];
    const uint64_t m3 = block[3]; /* BUG(unused-variable) */
    ROUND(0);
    ROUND(1);
    return h;
}
