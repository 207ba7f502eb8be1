// C++ exceptions across translation units: throw in one TU and catch in another, catch by base
// class, rethrow, std::exception_ptr, nested try blocks, destructors run during unwinding.
#include "errors.h"
#include <cstdio>
#include <typeinfo>

static int destroyed = 0;
struct Guard {
    const char *name;
    ~Guard() { ++destroyed; std::printf("  ~Guard(%s)\n", name); }
};

static int sum_digits(const char *s) {
    Guard g{"sum_digits"};
    int total = 0;
    for (; *s; ++s)
        total += parse_digit(*s);
    return total;
}

int main() {
    int failures = 0;

    try {
        throw_io("disk full");
    } catch (const AppError &e) { // by base class
        std::printf("caught AppError: %s code=%d\n", e.what(), e.code);
    }

    try {
        throw_parse(42);
    } catch (const IoError &) {
        std::printf("wrong handler\n");
        ++failures;
    } catch (const std::exception &e) { // by a more distant base
        auto *pe = dynamic_cast<const ParseError *>(&e);
        std::printf("caught std::exception: %s line=%d\n", e.what(), pe ? pe->line : -1);
    }

    try {
        throw_int(17);
    } catch (int v) {
        std::printf("caught int %d\n", v);
    }

    std::printf("sum=%d\n", sum_digits("12345"));
    try {
        sum_digits("12x45");
    } catch (const ParseError &e) {
        std::printf("caught ParseError: %s (destroyed=%d)\n", e.what(), destroyed);
    }

    for (int which = 0; which < 2; ++which) {
        try {
            rethrow_wrapped(which);
        } catch (const AppError &e) {
            std::printf("rethrown: %s code=%d\n", e.what(), e.code);
        }
    }

    for (int which = 0; which < 4; ++which) {
        std::exception_ptr p = capture(which);
        if (!p) {
            ++failures;
            continue;
        }
        try {
            std::rethrow_exception(p);
        } catch (const IoError &e) {
            std::printf("exception_ptr %d: IoError %s\n", which, e.what());
        } catch (const std::logic_error &e) {
            std::printf("exception_ptr %d: logic_error (%s)\n", which,
                        dynamic_cast<const std::out_of_range *>(&e) ? "out_of_range" : "other");
        } catch (double d) {
            std::printf("exception_ptr %d: double %.1f\n", which, d);
        }
    }

    try {
        try {
            throw_io("inner");
        } catch (...) {
            std::printf("inner catch-all, rethrowing\n");
            throw;
        }
    } catch (const IoError &e) {
        std::printf("outer caught: %s\n", e.what());
    }

    std::printf("destroyed=%d failures=%d\n", destroyed, failures);
    return failures == 0 && destroyed == 2 ? 0 : 1;
}
