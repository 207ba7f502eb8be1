/* Linked with -z stack-size=...: PT_GNU_STACK's p_memsz. */
#include <stdio.h>

int main(void) {
  puts("stack");
  return 0;
}
