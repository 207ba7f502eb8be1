/* Built against version 1 of the library ("old") or version 2 ("new"); always run with
   version 2. */
#include <stdio.h>

int foo(void);

int main(void) {
  printf("foo()=%d\n", foo());
  return 0;
}
