/* Native, -ffunction-sections. bc_shared() is called from live native_live() and from dead
   native_dead(). */
#include <stdio.h>
void bc_shared(void);
void native_dead(void) { bc_shared(); }
void native_live(void) {
  puts("native_live");
  bc_shared();
}
