/* missing_fn is defined nowhere; only the dead dead_fn() references it. */
#include <stdio.h>
void missing_fn(void);
void dead_fn(void) { missing_fn(); }
int main(void) {
  puts("main done");
  return 0;
}
