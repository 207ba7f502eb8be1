/* Bitcode. main calls native_live() and bc_live(). */
#include <stdio.h>
void native_live(void);
void bc_live(void);
int main(void) {
  native_live();
  bc_live();
  puts("main done");
  return 0;
}
