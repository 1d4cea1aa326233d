#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>

static void *(*p_create)(int);
static void (*p_release)(void *);

static void *no_create(int n) { (void)n; return NULL; }
static void no_release(void *p) { (void)p; }

/* Looks up the plug-in's entry points; a missing one falls back to a stub. */
int load_symbols(void *lib)
{
    int err;

    err = -ENOENT; /* BUG(dead-store) */
#define LOAD(symbol)                                          \
    do {                                                      \
        *(void **)(&p_##symbol) = dlsym(lib, #symbol);        \
        if (p_##symbol == NULL)                               \
            p_##symbol = no_##symbol;                         \
    } while (0)
    LOAD(create);
    LOAD(release);
#undef LOAD
    err = 0;
    return err;
}
