/* Bitcode. exported_unused() is referenced by nobody; --export-dynamic exports it. */
#include <stdio.h>
void exported_unused(void) { puts("exported_unused"); }
__attribute__((noinline)) void bc_live(void) { puts("bc_live"); }
