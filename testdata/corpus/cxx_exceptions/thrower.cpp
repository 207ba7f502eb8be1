#include "errors.h"
#include <new>
#include <vector>

void throw_io(const std::string &what) { throw IoError(what); }
void throw_parse(int line) { throw ParseError("unexpected token", line); }
void throw_int(int v) { throw v; }

int parse_digit(char c) {
    if (c < '0' || c > '9')
        throw ParseError(std::string("not a digit: ") + c, 1);
    return c - '0';
}

// Captures an exception in flight into an exception_ptr.
std::exception_ptr capture(int which) {
    try {
        switch (which) {
        case 0: throw_io("disk");
        case 1: throw std::out_of_range("index 9");
        case 2: { std::vector<int> v; v.at(3); }
        default: throw 3.5;
        }
    } catch (...) {
        return std::current_exception();
    }
    return nullptr;
}

// Catches, annotates, and rethrows with `throw;` (the same object).
void rethrow_wrapped(int which) {
    try {
        if (which == 0)
            throw_parse(12);
        throw_io("net");
    } catch (AppError &e) {
        e.code += 100;
        throw;
    }
}
