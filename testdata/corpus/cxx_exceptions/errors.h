#pragma once
#include <exception>
#include <stdexcept>
#include <string>

// A small exception hierarchy shared by the translation units.
struct AppError : std::runtime_error {
    int code;
    AppError(const std::string &what, int code) : std::runtime_error(what), code(code) {}
};
struct IoError : AppError {
    IoError(const std::string &what) : AppError("io: " + what, 5) {}
};
struct ParseError : AppError {
    int line;
    ParseError(const std::string &what, int line) : AppError("parse: " + what, 7), line(line) {}
};

// Defined in thrower.cpp.
void throw_io(const std::string &what);
void throw_parse(int line);
void throw_int(int v);
int parse_digit(char c); // throws ParseError on a non-digit
std::exception_ptr capture(int which);
void rethrow_wrapped(int which);
