#include <stdio.h>
int bc_check(void);
void member_fn(void);
int main(void) { if (bc_check()) member_fn(); puts("main"); return 0; }
