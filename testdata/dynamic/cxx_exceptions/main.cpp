// C++ exceptions across the shared library boundary, both ways: thrown in the library and
// caught here, thrown here (through a callback) and caught in the library, rethrown through
// library frames, exception_ptr, and destructors of library frames run while unwinding.
#include "liberr.h"
#include <cstdio>

namespace {
struct ExeError : std::logic_error {
  using std::logic_error::logic_error;
};
struct Opaque {
  int v;
};
struct Guard {
  ~Guard() { std::printf("  exe: guard destroyed\n"); }
};

void exe_throw(int kind) {
  Guard g;
  switch (kind) {
  case 0:
    throw ExeError("exe logic");
  case 1:
    throw 7;
  case 2:
    throw Opaque{9};
  case 3:
    lib::throw_kind(0); // the library throws through this frame
    break;
  case 4:
    throw std::runtime_error("exe runtime");
  default:
    break;
  }
}
} // namespace

int main() {
  for (int kind = 0; kind <= 4; kind++) {
    try {
      lib::throw_kind(kind);
      std::printf("exe: throw_kind(%d) returned\n", kind);
    } catch (const lib::LibError &e) {
      std::printf("exe: caught LibError: %s code=%d\n", e.what(), e.code);
    } catch (const std::out_of_range &e) {
      std::printf("exe: caught out_of_range: %s\n", e.what());
    } catch (int i) {
      std::printf("exe: caught int %d\n", i);
    } catch (const char *s) {
      std::printf("exe: caught const char*: %s\n", s);
    }
  }
  for (int kind = 0; kind <= 5; kind++)
    std::printf("exe: call_catching(%d) = %d\n", kind, lib::call_catching(exe_throw, kind));
  try {
    lib::rethrow_through(exe_throw, 2);
  } catch (const Opaque &o) {
    std::printf("exe: caught Opaque %d after the library rethrew it\n", o.v);
  }
  try {
    lib::rethrow_through(exe_throw, 3);
  } catch (const std::runtime_error &e) {
    std::printf("exe: caught %s as runtime_error after the library rethrew it\n", e.what());
  }
  std::exception_ptr p = lib::capture(1);
  try {
    std::rethrow_exception(p);
  } catch (const std::out_of_range &e) {
    std::printf("exe: rethrew the library's exception_ptr: %s\n", e.what());
  }
  return 0;
}
