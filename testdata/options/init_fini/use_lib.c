/* Uses libinit.so: its DT_INIT runs before main, its DT_FINI at exit. */
#include <stdio.h>

void lib_hello(void);

int main(void) {
  puts("main");
  lib_hello();
  return 0;
}
