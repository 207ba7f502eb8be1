/* Linked with the -z flags in the `exe` variants, against libz.so. */
#include <stdio.h>

int lib_value(void);

int main(void) {
  printf("lib_value=%d\n", lib_value());
  return 0;
}
