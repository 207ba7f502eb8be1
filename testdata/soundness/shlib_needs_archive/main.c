#include <stdio.h>
int plug(void);
int main(void) { printf("plug=%d\n", plug()); return 0; }
