#ifndef STORE_H
#define STORE_H
#include "compiler.h"
struct kv;
KV_MUST_CHECK int kv_sync(struct kv *kv);
void kv_close(struct kv *kv);
#endif
