#include "ringbuf.h"
void rb_init(ringbuf *r) { r->head = r->tail = r->count = 0; }
int rb_push(ringbuf *r, int v) {
  if (r->count == 8) return -1;
  r->data[r->tail] = v; r->tail = (r->tail + 1) % 8; r->count++;
  return 0;
}
int rb_pop(ringbuf *r, int *out) {
  if (r->count == 0) return -1;
  *out = r->data[r->tail]; r->head = (r->head + 1) % 8;
  return 0;
}
size_t rb_count(const ringbuf *r) { return r->count; }
