#include "registry.h"
/* One entry per TU: within a TU the compilers emit variables in different orders. */
static int plus_one(int x) { return x + 1; }
REGISTER_COMMAND(plus_one, plus_one, 4);
