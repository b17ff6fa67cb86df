#include <stdio.h>
#include "ringbuf.h"
int main(void) {
  ringbuf r; rb_init(&r); int v = 0, fails = 0;
  for (int i = 0; i < 12; i++) { rb_push(&r, i); if (i % 2) rb_pop(&r, &v); }
  if (rb_count(&r) != 6) { fprintf(stderr, "%s:%d: expected count 6, got %zu\n", __FILE__, __LINE__, rb_count(&r)); fails++; }
  return fails ? 1 : 0;
}
