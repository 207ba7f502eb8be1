// --optimize-bb-jumps: compiled with -fbasic-block-sections=all -ffunction-sections, every
// basic block is a section; many end in a jump to the next one.
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) int classify(int x) {
  int r = 0;
  for (int i = 0; i < x; i++) {
    if (i % 3 == 0) r += i; else if (i % 5 == 1) r -= 2; else r ^= i;
  }
  if (r > 100) return r / 2;
  return r;
}
__attribute__((noinline)) int sw(int x) {
  switch (x & 7) { case 0: return 11; case 1: return x * 3; case 2: return x - 9; case 3: return classify(x); default: return -1; }
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 50;
  int s = 0;
  for (int i = 0; i < n; i++) s += sw(i) + classify(i);
  printf("%d %d\n", classify(n), s);
  return 0;
}
