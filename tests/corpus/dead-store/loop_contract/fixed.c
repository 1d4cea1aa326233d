/* mlkem-native's CBMC loop contracts: `__loop__(...)` between a loop's condition and its body
   expands to nothing in a build, so the block is the loop's body and `left -= step` is read by the
   next test of the condition. */
#include <stddef.h>
#include <stdint.h>

#ifndef CBMC
#define __loop__(x)
#else
#define __loop__(x) x
#endif

void extract(uint8_t *out, size_t n);

void squeeze(uint8_t *out, size_t outlen, size_t rate)
{
    size_t left = outlen;
    size_t step;

    while (left > 0)
    __loop__(
        invariant(left <= outlen)
        decreases(left)
    )
    {
        step = left < rate ? left : rate;
        extract(out, step);
        out += step;
        left -= step;
    }
}
