#include <stdlib.h>

struct chunk {
    struct chunk *prev;
    size_t size;
    size_t used;
    unsigned char *mem;
};

static struct chunk *arena;

static struct chunk *chunk_new(size_t size, struct chunk *prev)
{
    struct chunk *c = calloc(1, sizeof(*c) + size);
    if (!c)
        abort();
    c->size = size;
    c->prev = prev;
    c->mem = (unsigned char *)(c + 1);
    return c;
}

/* Room for n bytes: a big request gets a chunk of its own, which nothing keeps. */
void *arena_alloc(size_t n)
{
    struct chunk *chunk;
    if (n > arena->size) {
        chunk = chunk_new(n, arena->prev); /* BUG(memory-leak) */
    } else if (n > arena->size - arena->used) {
        arena = chunk = chunk_new(arena->size * 2, arena);
    } else {
        chunk = arena;
    }
    void *p = chunk->mem + chunk->used;
    chunk->used += n;
    return p;
}
