/* Bitcode. kept_by_retain() is referenced by nobody; __attribute__((used, retain)) puts it in
   llvm.used and its section gets SHF_GNU_RETAIN, so it stays in the output. */
#include <stdio.h>
__attribute__((used, retain)) void kept_by_retain(void) { puts("kept_by_retain"); }
