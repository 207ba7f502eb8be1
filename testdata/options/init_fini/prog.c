/* A program whose DT_INIT and DT_FINI are named with --init=prog_init --fini=prog_fini (or
   -init/-fini): the dynamic loader runs them before main and at exit. */
#include <stdio.h>

void prog_init(void) { puts("prog_init"); }
void prog_fini(void) { puts("prog_fini"); }

int main(void) {
  puts("main");
  return 0;
}
