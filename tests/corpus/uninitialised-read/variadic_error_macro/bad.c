#include <stdio.h>

#define RAWLOG(l, ...) do { if (l < 2) fprintf(stderr, __VA_ARGS__); } while (0)
#define RETURN_ERROR(err, ...)                                  \
    do {                                                        \
        RAWLOG(3, "%s:%d: error", __FILE__, __LINE__);          \
        RAWLOG(3, ": " __VA_ARGS__);                            \
        return -(err);                                          \
    } while (0)

/* The size of a block of the given kind; an unknown kind falls through with no size. */
long block_size(int kind)
{
    long size;
    if (kind == 1)
        size = 4096;
    else if (kind == 2)
        size = 65536;
    else if (kind > 8)
        RETURN_ERROR(22, "kind %d", kind);
    return size; /* BUG(uninitialised-read) */
}
