#include "alloc.h"

int parse_all(void *arena, size_t n_tokens)
{
    if (arena_reserve(arena, n_tokens * 16) != 0)
        return -1;
    return 0;
}
