#include <stdio.h>
#include <string.h>
#include "strutil.h"
#define CHECK_STR(exp, act) do { if (strcmp((exp), (act)) != 0) { printf("%s:%d: CHECK_STR failed: expected \"%s\", actual \"%s\"\n", __FILE__, __LINE__, (exp), (act)); return 1; } } while (0)
int main(void) {
  char s[] = "mixed Case 1";
  su_upper(s);
  CHECK_STR("MIXED CASE 1", s);
  char t[] = "";
  su_upper(t);
  CHECK_STR("x", t);
  return 0;
}
