/* Linked with -Wl,--push-state,-static,--pop-state: -static applies to nothing, so the program is
   dynamic. */
#include <stdio.h>

int main(void) {
  puts("dynamic");
  return 3;
}
