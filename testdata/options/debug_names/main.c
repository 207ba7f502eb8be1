#include <stdio.h>
#include "shared.h"

int counter = 1;

/* Also defined (static) in util.c: two units index the same name. */
static int local_step(int x) { return x + 1; }

struct point { int x, y; };
enum color { RED, GREEN };

int main(void) {
  struct point p = { twice(3), square(4) };
  enum color c = GREEN;
  counter += local_step(p.x);
  printf("debug_names %d %d %d %d\n", p.y, helper(p.x), counter, (int)c);
  return 0;
}
