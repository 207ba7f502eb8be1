#include "registry.h"
static int negate(int x) { return -x; }
REGISTER_COMMAND(negate, negate, 3);

/* A second table in another C-identifier section, referenced only weakly from main.c. */
__attribute__((used, retain, section("unreferenced_table"))) static const int stray[4] = {1, 2, 3, 4};
