#ifndef BUFFER_H
#define BUFFER_H
#include <stddef.h>

struct buffer { char *data; size_t len, cap; };

struct buffer *buffer_new(size_t cap);
void buffer_free(struct buffer *b);
int buffer_fill(struct buffer *b, int fd);

#endif
