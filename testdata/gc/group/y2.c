#include <stdio.h>
__attribute__((constructor)) static void y2_init(void) { puts("y2 init"); }
void y2_fn(void) { puts("y2_fn"); }
