/* The first step of each round is overwritten before anything reads it. */
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
        step = rate; /* BUG(dead-store) */
        step = left < rate ? left : rate;
        extract(out, step);
        out += step;
        left -= step;
    }
}
