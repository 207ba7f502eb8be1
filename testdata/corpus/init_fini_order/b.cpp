#include "statics.h"
#include <cstdlib>
static void at_exit_b() { std::printf("atexit handler (b.cpp)\n"); }
static Logger logger_b([] {
    std::atexit(at_exit_b);
    return "b1 (registered atexit first)";
}());
__attribute__((init_priority(500))) static Logger early_b("b-init_priority-500");
