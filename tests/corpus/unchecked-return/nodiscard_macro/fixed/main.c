#include "store.h"

/* Flushes and closes the store, saying whether the flush worked. */
int shutdown_store(struct kv *kv)
{
    int rc = kv_sync(kv);
    kv_close(kv);
    return rc;
}
