#include <stdlib.h>

struct vec { int *data; size_t len; };

int vec_sum(const struct vec *v) {
    int total = 0;
    for (size_t i = 0; i < v->len; i++)
        total += v->data[i];
    return totl;
}

void vec_push(struct vec *v, int x) {
    v->data = realloc(v->data, v->len + 1);
    v->data[v->len++] = x
}
