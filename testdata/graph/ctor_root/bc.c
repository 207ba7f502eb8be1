/* Bitcode. bc_from_ctor() is called only by native.o's constructor. */
#include <stdio.h>
__attribute__((noinline)) void bc_from_ctor(void) { puts("bc_from_ctor"); }
__attribute__((noinline)) void bc_live(void) { puts("bc_live"); }
