#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>

static void *(*p_create)(int);
static void (*p_release)(void *);

/* Looks up the plug-in's entry points; -ENOENT when one is missing. */
int load_symbols(void *lib)
{
    int err;

    err = -ENOENT;
#define LOAD(symbol)                                          \
    do {                                                      \
        *(void **)(&p_##symbol) = dlsym(lib, #symbol);        \
        if (p_##symbol == NULL)                               \
            goto out;                                         \
    } while (0)
    LOAD(create);
    LOAD(release);
#undef LOAD
    err = 0;
out:
    return err;
}
