#ifndef RINGBUF_H
#define RINGBUF_H
#include <stddef.h>
typedef struct { int data[8]; size_t head, tail, count; } ringbuf;
void rb_init(ringbuf *r);
int rb_push(ringbuf *r, int v);
int rb_pop(ringbuf *r, int *out);
size_t rb_count(const ringbuf *r);
#endif
