#include <stdio.h>
#include <string.h>
#include "strutil.h"
int main(void) {
  char buf[] = "  hi  ";
  printf("trim: '%s'\n", su_trim(buf));
  return strcmp(su_trim(buf), "hi") != 0;
}
