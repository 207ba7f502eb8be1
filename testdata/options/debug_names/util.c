#include "shared.h"

/* The one external definition of square (C99 inline). */
extern int square(int x);

static int local_step(int x) { return x + 2; }

typedef unsigned long ulong_t;

int helper(int x) {
  ulong_t u = (ulong_t)twice(x);
  return (int)u + square(x) + local_step(counter);
}
