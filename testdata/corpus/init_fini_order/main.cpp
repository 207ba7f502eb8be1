// Initialisation and finalisation order: C constructors with priorities, C++ init_priority,
// C++ dynamic initialisers in several TUs (in link order), raw .init_array/.fini_array entries,
// atexit and __cxa_atexit handlers interleaved in reverse order at exit, and function-local
// statics destroyed in reverse order of construction.
#include "statics.h"
#include <cstdlib>

static Logger logger_main("main.cpp global");

static Logger &local_static() {
    static Logger l("function-local static");
    return l;
}

int main() {
    std::printf("main starts, value_from_a=%d\n", value_from_a());
    local_static();
    std::printf("main returns\n");
    return value_from_a() == 11 ? 0 : 1;
}
