/* Native, -ffunction-sections: a native main calling bitcode leaf.o's leaf_fn directly. */
#include <stdio.h>
void leaf_fn(void);
int main(void) {
  leaf_fn();
  puts("main done");
  return 0;
}
