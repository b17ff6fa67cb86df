#include <stdio.h>
#include <unistd.h>
int main(void) {
  printf("waiting for the lock file\n");
  fflush(stdout);
  sleep(5);
  return 0;
}
