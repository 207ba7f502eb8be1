/* The program of the `compress` group: enough DWARF (types, functions, lines) that every
   `.debug_*` section compresses, plus a non-allocated section `.weld_meta` of repetitive text
   (a `--compress-sections` target that is not debug information). */
#include <stdio.h>

struct point {
    long x, y;
    const char *label;
};

int compute(int n);
long area(const struct point *a, const struct point *b);

__asm__(".section .weld_meta,\"\",@progbits\n"
        ".rept 64\n"
        ".ascii \"metadata: not loaded, compressible, repeated line of text\\n\"\n"
        ".endr\n"
        ".text\n");

int main(void) {
    struct point a = {3, 4, "a"}, b = {10, 20, "b"};
    printf("compress %d %ld\n", compute(10), area(&a, &b));
    return 0;
}
