#include <stdio.h>
__attribute__((noinline)) int foo(int x) { return x * 2; }
int __real_foo(int);
int __wrap_foo(int x) { puts("wrapped"); return __real_foo(x) * 10; }
int main(void) { printf("r=%d\n", foo(1)); return 0; }
