#include "errors.h"
#include <cstdio>
#include <cstdlib>

Guard::Guard(const char *n) : name(n) { std::printf("  guard %s up\n", name); }
Guard::~Guard() { std::printf("  guard %s down\n", name); }

void throw_kind(int kind) {
  Guard g("throw_kind");
  switch (kind) {
  case 0: throw ParseError("bad token");
  case 1: throw IoError("disk on fire");
  case 2: throw AppError("generic", 1);
  case 3: throw std::out_of_range("index 7");
  case 4: throw 42;
  default: throw "a C string";
  }
}

int parse_number(const char *s) {
  char *end;
  long v = std::strtol(s, &end, 10);
  if (*s == 0 || *end != 0) throw ParseError(std::string("not a number: ") + s);
  return (int)v;
}

int parse_all(const char *const *items, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) {
    try {
      sum += parse_number(items[i]);
    } catch (AppError &e) {
      e.code += 100 * (i + 1);
      throw;  // rethrow the same object, modified
    }
  }
  return sum;
}

std::exception_ptr capture(int kind) {
  try {
    throw_kind(kind);
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

void call_through(void (*fn)(int), int arg) {
  Guard g("call_through");
  fn(arg);
}
