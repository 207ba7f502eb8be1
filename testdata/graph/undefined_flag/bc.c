/* Bitcode. forced_fn() is referenced by nobody; -u forced_fn keeps it. */
#include <stdio.h>
void forced_fn(void) { puts("forced_fn"); }
__attribute__((noinline)) void bc_live(void) { puts("bc_live"); }
