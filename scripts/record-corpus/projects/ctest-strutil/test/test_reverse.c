#include <string.h>
#include "strutil.h"
int main(void) {
  char s[] = "abc";
  su_reverse(s);
  return strcmp(s, "cba") != 0;
}
