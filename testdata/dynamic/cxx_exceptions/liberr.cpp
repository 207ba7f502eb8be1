#include "liberr.h"
#include <cstdio>

namespace lib {

namespace {
struct Trace {
  const char *name;
  explicit Trace(const char *n) : name(n) { std::printf("  lib: enter %s\n", name); }
  ~Trace() { std::printf("  lib: leave %s\n", name); }
};
} // namespace

LibError::LibError(const std::string &what, int c) : std::runtime_error(what), code(c) {}
LibError::~LibError() {}

void throw_kind(int kind) {
  Trace t("throw_kind");
  switch (kind) {
  case 0:
    throw LibError("lib failure", 17);
  case 1:
    throw std::out_of_range("lib index");
  case 2:
    throw 42;
  case 3:
    throw "lib c-string";
  default:
    return;
  }
}

int call_catching(void (*cb)(int), int arg) {
  Trace t("call_catching");
  try {
    cb(arg);
    return 0;
  } catch (const LibError &e) {
    std::printf("  lib: caught LibError from the program: %s (%d)\n", e.what(), e.code);
    return 1;
  } catch (const std::logic_error &e) {
    std::printf("  lib: caught logic_error from the program: %s\n", e.what());
    return 2;
  } catch (const std::exception &e) {
    std::printf("  lib: caught exception from the program: %s\n", e.what());
    return 3;
  } catch (int i) {
    std::printf("  lib: caught int from the program: %d\n", i);
    return 4;
  } catch (...) {
    std::printf("  lib: caught something unknown from the program\n");
    return 5;
  }
}

void rethrow_through(void (*cb)(int), int arg) {
  Trace t("rethrow_through");
  try {
    cb(arg);
  } catch (...) {
    std::printf("  lib: rethrowing\n");
    throw;
  }
}

std::exception_ptr capture(int kind) {
  try {
    throw_kind(kind);
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

} // namespace lib
