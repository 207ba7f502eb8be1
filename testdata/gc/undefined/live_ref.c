/* missing_fn is defined nowhere and live_fn(), called by main, references it. */
#include <stdio.h>
void missing_fn(void);
void live_fn(void) { missing_fn(); }
int main(void) {
  live_fn();
  puts("main done");
  return 0;
}
