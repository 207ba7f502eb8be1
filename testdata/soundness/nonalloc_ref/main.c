#include <stdio.h>
int bc_meta_target(int x) { return x + 1; }
int main(void) { puts("ok"); return 0; }
