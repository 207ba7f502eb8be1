#include <stdio.h>
int foo(int x) { return x * 2; }
int __real_foo(int);
int __wrap_foo(int x) { puts("wrapped"); return __real_foo(x) * 10; }
