#pragma once
#include <cstdio>
// An object whose constructor and destructor log; static instances in several TUs.
struct Logger {
    const char *name;
    explicit Logger(const char *n) : name(n) { std::printf("construct %s\n", name); }
    ~Logger() { std::printf("destroy %s\n", name); }
};
int value_from_a();
