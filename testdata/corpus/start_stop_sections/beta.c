#include "registry.h"
static int square(int x) { return x*x; }
REGISTER_COMMAND(square, square, 2);
