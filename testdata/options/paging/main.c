/* Every kind of section a segment layout has to place: code, read-only data, initialised and
 * zero data, RELRO (a pointer table in .data.rel.ro under -static -fPIE), .tdata and .tbss. */
#include <stdio.h>

static const char greeting[] = "paging";
int counter = 40;
int zeroes[100];
__thread int tls_init = 2;
__thread int tls_zero;
static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }
int (*const ops[])(int) = {twice, thrice};

int main(void) {
    tls_zero += tls_init;
    zeroes[99] = ops[1](counter) + ops[0](tls_zero);
    printf("%s %d %d\n", greeting, zeroes[99], zeroes[0]);
    return 0;
}
