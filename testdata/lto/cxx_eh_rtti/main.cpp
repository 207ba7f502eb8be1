// Exceptions thrown in one unit and caught in another, rethrown, captured in exception_ptr,
// passing through a function pointer; RTTI (typeid, dynamic_cast, bad_cast) across units.
// Built all-ThinLTO, all-full-LTO and mixed (thrower.cpp native, the rest bitcode).
#include "errors.h"
#include "shapes.h"
#include <cstdio>
#include <cstring>
#include <memory>
#include <typeinfo>

static void report(int kind) {
  try {
    throw_kind(kind);
  } catch (const ParseError &e) {
    std::printf("caught ParseError(%s) code=%d kind=%s\n", e.what(), e.code, e.kind());
  } catch (const AppError &e) {
    std::printf("caught AppError-derived %s(%s) code=%d typeid=%s\n", e.kind(), e.what(), e.code,
                typeid(e).name());
  } catch (const std::exception &e) {
    std::printf("caught std::exception typeid=%s what=%s\n", typeid(e).name(), e.what());
  } catch (int v) {
    std::printf("caught int %d\n", v);
  } catch (...) {
    std::printf("caught something else\n");
  }
}

static void thrower_cb(int v) {
  if (v > 0) throw IoError("from callback " + std::to_string(v));
}

int main() {
  for (int k = 0; k <= 5; k++) report(k);

  const char *good[] = {"1", "20", "300"};
  const char *bad[] = {"1", "x2", "3"};
  std::printf("parse_all(good) = %d\n", parse_all(good, 3));
  try {
    parse_all(bad, 3);
  } catch (const AppError &e) {
    std::printf("parse_all(bad) threw %s code=%d\n", e.what(), e.code);
  }

  std::exception_ptr p = capture(1);
  try {
    std::rethrow_exception(p);
  } catch (const IoError &e) {
    std::printf("rethrown exception_ptr: %s\n", e.what());
  }

  try {
    call_through(thrower_cb, 7);
  } catch (const AppError &e) {
    std::printf("through function pointer: %s (%s)\n", e.what(), typeid(e).name());
  }

  for (int k = 0; k < 3; k++) {
    std::unique_ptr<Shape> s(make_shape(k));
    std::printf("%s: area=%ld typeid=%s is_square=%d same_as_square_type=%d\n", s->name(),
                s->area(), typeid(*s).name(), is_square(*s), typeid(*s) == square_type());
    try {
      const Square &sq = as_square(*s);
      std::printf("  as_square ok, side=%ld\n", sq.side);
    } catch (const std::bad_cast &e) {
      std::printf("  as_square threw %s\n", typeid(e).name());
    }
  }
  std::printf("typeid(Square) here == there: %d\n", typeid(Square) == square_type());
  return 0;
}
