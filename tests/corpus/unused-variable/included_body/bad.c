/* A cipher core in the style of libsodium's SIMD code: the state pointer is declared again in the
 * body, but the rounds included at file scope cannot read a local of the function. */
#include <stdint.h>

static uint32_t rounds(const uint32_t *x)
{
    uint32_t a, b, c, d;
#include "quarter_round.inc"
    return d;
}

uint32_t core(const uint32_t *state)
{
    const uint32_t *x = state; /* BUG(unused-variable) */
    return rounds(state);
}
