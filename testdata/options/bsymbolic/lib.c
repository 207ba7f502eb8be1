/* libbs.so, compiled -fPIC -fsemantic-interposition so that its own calls and reads go through
   the PLT and GOT and the linker's -Bsymbolic* choice decides which definition it uses. */
#include <stdio.h>

__attribute__((noinline)) int strong_fn(void) { return 1; }
__attribute__((noinline, weak)) int weak_fn(void) { return 2; }
int strong_var = 3;
__attribute__((weak)) int weak_var = 4;

void lib_report(void) {
  printf("lib: strong_fn=%d weak_fn=%d strong_var=%d weak_var=%d\n", strong_fn(), weak_fn(),
         strong_var, weak_var);
}
