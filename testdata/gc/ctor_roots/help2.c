#include <stdio.h>
__attribute__((constructor)) static void help2_init(void) { puts("help2 init"); }
void help2_fn(void) { puts("help2_fn"); }
