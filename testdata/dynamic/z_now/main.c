#include <stdio.h>
int lib_fn(int);
int main(void) {
  printf("lib_fn(21)=%d\n", lib_fn(21));
  return 0;
}
