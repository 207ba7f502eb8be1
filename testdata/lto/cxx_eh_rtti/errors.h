// Exception types shared by every translation unit: their type_info and vtables are COMDAT and
// must resolve to one definition whether the unit is bitcode or native.
#pragma once
#include <stdexcept>
#include <string>

struct AppError : std::runtime_error {
  int code;
  AppError(const std::string &what, int c) : std::runtime_error(what), code(c) {}
  virtual const char *kind() const { return "app"; }
};
struct ParseError : AppError {
  explicit ParseError(const std::string &what) : AppError(what, 2) {}
  const char *kind() const override { return "parse"; }
};
struct IoError : AppError {
  explicit IoError(const std::string &what) : AppError(what, 3) {}
  const char *kind() const override { return "io"; }
};

// thrower.cpp
void throw_kind(int kind);
int parse_number(const char *s);
int parse_all(const char *const *items, int n);  // rethrows with context
std::exception_ptr capture(int kind);
void call_through(void (*fn)(int), int arg);      // calls fn, lets exceptions pass

struct Guard {
  const char *name;
  explicit Guard(const char *n);
  ~Guard();
};
