#pragma once
#include <exception>
#include <stdexcept>
#include <string>

namespace lib {

// Thrown by the library, caught by the program: its typeinfo lives in the library (key function).
struct LibError : std::runtime_error {
  LibError(const std::string &what, int code);
  ~LibError() override;
  int code;
};

// 0: LibError, 1: std::out_of_range, 2: int, 3: const char *, else: nothing.
void throw_kind(int kind);
// Calls back into the program and catches what it throws (by base class, int, or `...`).
int call_catching(void (*cb)(int), int arg);
// Calls back into the program and rethrows with `throw;` after running destructors.
void rethrow_through(void (*cb)(int), int arg);
// An exception_ptr made in the library.
std::exception_ptr capture(int kind);

} // namespace lib
