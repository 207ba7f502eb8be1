/* Bitcode. */
#include <stdio.h>
__attribute__((noinline)) void leaf_fn(void) { puts("leaf_fn"); }
