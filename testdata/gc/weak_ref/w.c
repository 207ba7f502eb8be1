#include <stdio.h>
__attribute__((constructor)) static void w_init(void) { puts("w init"); }
void weak_fn(void) { puts("weak_fn"); }
