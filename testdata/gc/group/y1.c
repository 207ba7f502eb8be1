#include <stdio.h>
void x2_fn(void);
void y1_fn(void) {
  puts("y1_fn");
  x2_fn();
}
