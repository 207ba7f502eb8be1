#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  volatile unsigned __int128 a = (unsigned __int128)argc * 1000000000000000ULL * 1000;
  volatile unsigned __int128 b = argc + 6;
  unsigned __int128 q = a / b;
  printf("q=%llu\n", (unsigned long long)q);
  return 0;
}
