/* Bitcode. bc_shared() is reached from live native code (and from dead native code). */
#include <stdio.h>
__attribute__((noinline)) void bc_shared(void) { puts("bc_shared"); }
__attribute__((noinline)) void bc_live(void) { puts("bc_live"); }
