#include <stdio.h>
#include "util.h"

int main(void) {
    struct point p = {1, 2};
    printf("%d\n", clamp(p.x, 0, 10));
    return undefined_value;
}
