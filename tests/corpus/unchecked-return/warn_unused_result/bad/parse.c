#include "alloc.h"

void parse_all(void *arena, size_t n_tokens)
{
    arena_reserve(arena, n_tokens * 16); /* BUG(unchecked-return) */
}
