#include <stdio.h>
__attribute__((section("gone"))) int unused_var = 5;
extern __attribute__((weak)) int __start_gone[], __stop_gone[];
int main(void) { printf("start=%d stop=%d\n", __start_gone != 0, __stop_gone != 0); return 0; }
