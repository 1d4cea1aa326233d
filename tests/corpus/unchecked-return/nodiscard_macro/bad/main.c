#include "store.h"

/* Flushes and closes the store: a failed flush goes unnoticed. */
void shutdown_store(struct kv *kv)
{
    kv_sync(kv); /* BUG(unchecked-return) */
    kv_close(kv);
}
