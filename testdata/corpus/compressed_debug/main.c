/* Compiled with -gz=zlib; shapes.c with -gz=zstd (clang) or -gz=zlib (gcc). */
#include <stdio.h>

struct rect {
    int w, h;
};

int area(const struct rect *r);
const char *shape_name(int sides);

int main(void) {
    struct rect r = {6, 7};
    printf("%s area=%d\n", shape_name(4), area(&r));
    printf("%s\n", shape_name(3));
    return 0;
}
