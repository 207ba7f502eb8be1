#include <stdio.h>
void helper_fn(void) { puts("helper_fn, called by a constructor"); }
