/* libcc.a(c.o), the end of the chain. */
#include <stdio.h>
__attribute__((constructor)) static void c_init(void) { puts("c init"); }
void c_fn(void) { puts("c_fn"); }
