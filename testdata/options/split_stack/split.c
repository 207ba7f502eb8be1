// Compiled by gcc with -fsplit-stack. small (cmp %fs:0x70,%rsp prologue) and big (lea of a
// large frame) call nosplit_fn, compiled without it: lld adjusts their prologues and sends
// their __morestack calls to __morestack_non_split. calls_split calls only split-stack code.
#include <stdio.h>
int nosplit_fn(int x);
int small(int x) { return nosplit_fn(x) + 1; }
int big(int x) {
  volatile char buf[8192];
  buf[x] = 1;
  return nosplit_fn(buf[x] + x);
}
int splitcallee(int x) { return x * 3; }
int calls_split(int x) {
  volatile char b[64];
  b[0] = x;
  return splitcallee(b[0]);
}
int main(int argc, char **argv) {
  (void)argv;
  printf("%d %d %d\n", small(argc), big(argc), calls_split(argc));
  return 0;
}
