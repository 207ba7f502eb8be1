/* Bitcode. bc_calls_missing() calls missing_from_bc(), which no input defines; only dead native
   code calls bc_calls_missing(). */
#include <stdio.h>
void missing_from_bc(void);
void bc_calls_missing(void) {
  puts("bc_calls_missing");
  missing_from_bc();
}
__attribute__((noinline)) void bc_live(void) { puts("bc_live"); }
