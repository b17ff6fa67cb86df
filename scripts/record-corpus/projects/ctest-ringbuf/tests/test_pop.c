#include <assert.h>
#include "ringbuf.h"
int main(void) {
  ringbuf r; rb_init(&r); int v = 0;
  rb_push(&r, 7);
  assert(rb_pop(&r, &v) == 0);
  assert(v == 7);
  return 0;
}
