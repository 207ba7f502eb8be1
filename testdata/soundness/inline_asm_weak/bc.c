#include <stdio.h>
int bc_cb(int x) { return x * 3; }
int result;
int main(void) {
  asm volatile("call native_helper" ::: "memory", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11");
  printf("result=%d\n", result);
  return 0;
}
