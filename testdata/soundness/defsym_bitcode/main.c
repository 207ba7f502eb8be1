#include <stdio.h>
int bc_impl(int x) { return x * 5; }
