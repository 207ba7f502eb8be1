#include <stdio.h>
extern char abs_sym[];
int main(void) { printf("%lx\n", (unsigned long)abs_sym); return 0; }
