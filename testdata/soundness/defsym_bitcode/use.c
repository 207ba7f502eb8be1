#include <stdio.h>
extern int alias(int);
int main(void) { printf("alias=%d\n", alias(3)); return 0; }
