#include <stdio.h>
__attribute__((constructor)) static void init(void) { puts("member init"); }
void member_fn(void) { puts("member_fn"); }
