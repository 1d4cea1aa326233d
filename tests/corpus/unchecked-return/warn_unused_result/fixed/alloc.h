#ifndef ALLOC_H
#define ALLOC_H
#include <stddef.h>
int arena_reserve(void *arena, size_t n) __attribute__((warn_unused_result));
#endif
