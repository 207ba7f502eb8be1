#include <stdio.h>
typedef void (*fn)(void);
static void hello(void) { puts("hello from __libc_hooks"); }
__attribute__((section("__libc_hooks"))) fn hook = hello;
extern fn __start___libc_hooks[], __stop___libc_hooks[];
int main(void) { for (fn *p = __start___libc_hooks; p < __stop___libc_hooks; p++) (*p)(); return 0; }
