// 1 as compiled; the pass plugin makes it 42 during LTO. `volatile` keeps the load, so the
// program prints whatever the initializer ends up being.
#include <stdio.h>
volatile int weld_plugin_marker = 1;
int main(void) {
  printf("marker=%d\n", weld_plugin_marker);
  return 0;
}
