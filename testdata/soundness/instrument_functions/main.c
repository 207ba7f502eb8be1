#include <stdio.h>
extern int enters, exits;
int bc_traced_calls;
__attribute__((no_instrument_function)) void bc_note(void) { bc_traced_calls++; }
__attribute__((noinline)) int work(int x) { return x * 2 + 1; }
int main(int argc, char **argv) {
  (void)argv;
  int r = work(argc + 1);
  printf("r=%d notes=%d enters=%d exits=%d\n", r, bc_traced_calls, enters, exits);
  return 0;
}
