// --branch-to-branch: main calls w1, which only jumps to w2 (b.c), which only jumps to impl;
// a static wrapper, a function pointer (never redirected: not a PLT32 reference), a chain of
// three jumps and a relative table of branch targets (table.s).
#include <stdio.h>
int impl(int x);
int w2(int x);
int hop1(int x);
int via_local(int x);
int via_local_ret(int x);
int to_notcode(int x);
int spin(int x);
int call_rel(int i, int x);
__attribute__((noinline)) int w1(int x) { return w2(x); }
static __attribute__((noinline)) int sw(int x) { return impl(x); }
int (*fp)(int) = w1;
int main(int argc, char **argv) {
  (void)argv;
  if (argc > 5) {
    spin(argc);
    to_notcode(argc);
  }
  printf("%d %d %d %d\n", w1(argc), w2(argc), sw(argc), fp(argc));
  printf("%d %d %d\n", hop1(argc), via_local(argc), via_local_ret(argc));
  printf("%d %d %d\n", call_rel(0, argc), call_rel(1, argc), call_rel(2, argc));
  return 0;
}
