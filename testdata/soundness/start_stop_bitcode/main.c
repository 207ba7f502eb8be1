#include <stdio.h>
extern int __start_myset[], __stop_myset[];
int main(void) { int s = 0; for (int *p = __start_myset; p < __stop_myset; p++) s += *p; printf("sum=%d n=%d\n", s, (int)(__stop_myset - __start_myset)); return 0; }
