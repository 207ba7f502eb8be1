/* Bitcode, libcc.a(c.o). */
#include <stdio.h>
__attribute__((constructor)) static void c_init(void) { puts("c init"); }
void c_fn(void) { puts("c_fn"); }
