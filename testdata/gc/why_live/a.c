#include <stdio.h>
int deep_fn(int);
void ctor_helper(void);
int middle_fn(int x) { return deep_fn(x) + 1; }
int gvar = 42;
int gvar_user(void) { return gvar; }
static __attribute__((noinline)) int local_fn(int x) { return x * 3; }
int uses_local(volatile int x) { return local_fn(x); }
__attribute__((constructor)) void ctor_fn(void) { ctor_helper(); }
__attribute__((retain, used)) void kept_fn(void) { puts("kept"); }
int gl_one(void) { return 1; }
int gl_two(void) { return 2; }
int gl_dead(void) { return 3; }
int dead_fn(void) { return 4; }
