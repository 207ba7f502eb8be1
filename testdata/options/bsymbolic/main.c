/* Interposes all four definitions of libbs.so; lib_report() shows which ones the library's own
   references were bound to. */
#include <stdio.h>

void lib_report(void);

int strong_fn(void) { return 10; }
int weak_fn(void) { return 20; }
int strong_var = 30;
int weak_var = 40;

int main(void) {
  lib_report();
  printf("main: strong_fn=%d weak_fn=%d strong_var=%d weak_var=%d\n", strong_fn(), weak_fn(),
         strong_var, weak_var);
  return 0;
}
