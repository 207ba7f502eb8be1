/* Bitcode. */
#include <stdio.h>
void bc_live(void);
int main(void) {
  bc_live();
  puts("main done");
  return 0;
}
