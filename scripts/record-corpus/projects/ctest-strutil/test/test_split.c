#include <stdio.h>
#include "strutil.h"
int main(void) {
  char parts[4][16];
  size_t n = su_split("a,b,c", ',', parts, 4);
  if (n != 3) return 1;
  return 0;
}
