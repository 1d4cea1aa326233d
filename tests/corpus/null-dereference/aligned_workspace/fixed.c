#include <stddef.h>

typedef unsigned char byte;
typedef struct {
    unsigned count[256];
    unsigned total;
} histogram;

/* Aligns a caller's workspace up to `align` bytes. On success *size shrinks by the padding and the
 * aligned pointer comes back; when the padding does not fit, *size becomes 0 and NULL comes back. */
static void *align_workspace(void *workspace, size_t *size, size_t align)
{
    size_t const mask = align - 1;
    size_t const rem = (size_t)workspace & mask;
    size_t const add = (align - rem) & mask;
    byte *const aligned = (byte *)workspace + add;
    if (*size >= add) {
        *size -= add;
        return aligned;
    } else {
        *size = 0;
        return NULL;
    }
}

static void bump(unsigned *counter)
{
    (*counter)++;
}

/* Counts the bytes of src in the caller's workspace; 0 when it is too small. */
unsigned most_frequent(const byte *src, size_t n, void *workspace, size_t workspace_size)
{
    histogram *h = (histogram *)align_workspace(workspace, &workspace_size, sizeof(unsigned));
    unsigned best = 0;
    size_t i;
    if (workspace_size < sizeof(histogram))
        return 0;
    h->total = 0;
    for (i = 0; i < 256; i++)
        h->count[i] = 0;
    for (i = 0; i < n; i++) {
        h->count[src[i]]++;
        bump(&h->total);
    }
    for (i = 1; i < 256; i++)
        if (h->count[i] > h->count[best])
            best = (unsigned)i;
    return best;
}
