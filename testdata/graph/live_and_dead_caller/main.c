/* Bitcode. main calls native_live() in native.o and bc_live() in bc.o. */
#include <stdio.h>
void native_live(void);
void bc_live(void);
int main(void) {
  native_live();
  bc_live();
  puts("main done");
  return 0;
}
