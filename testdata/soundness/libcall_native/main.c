#include <stdio.h>
int bc_hook_calls;
void bc_hook(void) { bc_hook_calls++; }
int main(int argc, char **argv) {
  (void)argv;
  volatile unsigned __int128 a = (unsigned __int128)argc * 1000000000000000ULL * 1000;
  volatile unsigned __int128 b = argc + 6;
  unsigned __int128 q = a / b;
  printf("q=%llu hooks=%d\n", (unsigned long long)q, bc_hook_calls);
  return 0;
}
