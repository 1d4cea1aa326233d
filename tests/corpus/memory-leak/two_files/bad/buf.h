#ifndef BUF_H
#define BUF_H
#include <stddef.h>
struct buf { char *data; size_t len, cap; };
struct buf *buf_new(size_t cap);
void buf_free(struct buf *b);
int buf_append(struct buf *b, const char *s, size_t n);
#endif
