#include <ctype.h>
#include <string.h>
#include "strutil.h"
char *su_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) e--;
  *e = 0;
  return s;
}
size_t su_split(const char *s, char sep, char out[][16], size_t max) {
  size_t n = 0, k = 0;
  for (; *s && n < max; s++) {
    if (*s == sep) { out[n][k] = 0; n++; k = 0; continue; }
    out[n][k++] = *s;
  }
  return n;
}
void su_reverse(char *s) {
  char *p = NULL;
  size_t n = strlen(s);
  for (size_t i = 0; i < n / 2; i++) { char c = s[i]; s[i] = p[n - 1 - i]; s[n - 1 - i] = c; }
}
void su_upper(char *s) { for (; *s; s++) *s = (char)toupper((unsigned char)*s); }
