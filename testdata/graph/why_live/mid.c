/* Native, -ffunction-sections. */
#include <stdio.h>
void leaf_fn(void);
void mid_fn(void) {
  puts("mid_fn");
  leaf_fn();
}
