#include <stdio.h>
int deep_fn(int x) { return x * 2; }
void ctor_helper(void) { puts("ctor"); }
