/* Bitcode. kept_by_used() is referenced by nobody; __attribute__((used)) puts it in
   llvm.compiler.used. */
#include <stdio.h>
__attribute__((used)) void kept_by_used(void) { puts("kept_by_used"); }
