#include <stdio.h>
__attribute__((constructor)) static void g_init(void) { puts("g init"); }
void g_fn(void) { puts("g_fn"); }
