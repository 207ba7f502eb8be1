#include <stdio.h>
void y1_fn(void);
void x1_fn(void) {
  puts("x1_fn");
  y1_fn();
}
