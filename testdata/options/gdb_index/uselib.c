/* gdb_index: a program using lib.c's library. */
#include <stdio.h>

int lib_add(int a, int b);

int main(void) {
  printf("lib %d\n", lib_add(2, 3));
  return 0;
}
