#include <stddef.h>
char *su_trim(char *s);
size_t su_split(const char *s, char sep, char out[][16], size_t max);
void su_reverse(char *s);
void su_upper(char *s);
