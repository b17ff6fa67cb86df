#include <stdio.h>

int square(int x) {
    return x * x
}

int main(void) {
    int y = squre(3);
    printf("%d\n", y);
    return 0;
}
