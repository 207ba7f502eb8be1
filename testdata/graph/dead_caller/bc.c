/* Bitcode. bc_dead_only() is referenced only by native.o's dead native_dead(). */
#include <stdio.h>
void bc_dead_only(void) { puts("bc_dead_only"); }
__attribute__((noinline)) void bc_live(void) { puts("bc_live"); }
