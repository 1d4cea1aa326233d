#include <stdlib.h>
#include "store.h"

struct kv {
    int fd;
    char *pending;
};

int kv_sync(struct kv *kv)
{
    if (kv->pending == NULL)
        return 0;
    free(kv->pending);
    kv->pending = NULL;
    return 0;
}

void kv_close(struct kv *kv)
{
    free(kv->pending);
    free(kv);
}
