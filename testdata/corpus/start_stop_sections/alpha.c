#include "registry.h"
static int double_it(int x) { return x*2; }
REGISTER_COMMAND(double_it, double_it, 1);
