#include <stdio.h>
int bar(void);
int main(void) { printf("main bar=%d\n", bar()); return 0; }
