#include <assert.h>
#include "ringbuf.h"
int main(void) {
  ringbuf r; rb_init(&r);
  assert(rb_push(&r, 1) == 0);
  assert(rb_count(&r) == 1);
  return 0;
}
