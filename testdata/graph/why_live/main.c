/* Bitcode. main -> mid_fn (native mid.o) -> leaf_fn (bitcode leaf.o). */
#include <stdio.h>
void mid_fn(void);
int main(void) {
  mid_fn();
  puts("main done");
  return 0;
}
