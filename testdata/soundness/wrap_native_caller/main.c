#include <stdio.h>
int foo(int);
int main(void) { printf("r=%d\n", foo(1)); return 0; }
