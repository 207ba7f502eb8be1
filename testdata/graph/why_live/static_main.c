/* Bitcode. main -> the static helper() -> mid_fn (native mid.o) -> leaf_fn (bitcode leaf.o). */
#include <stdio.h>
void mid_fn(void);
__attribute__((noinline)) static void helper(void) { mid_fn(); }
int main(void) {
  helper();
  puts("main done");
  return 0;
}
