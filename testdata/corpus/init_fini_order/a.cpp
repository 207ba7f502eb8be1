#include "statics.h"
#include <cstdlib>
static Logger logger_a1("a1");
static int computed = std::printf("dynamic init of computed (a.cpp)\n") > 0 ? 11 : 0;
static Logger logger_a2("a2");
__attribute__((init_priority(1000))) static Logger early_a("a-init_priority-1000");
int value_from_a() { return computed; }
