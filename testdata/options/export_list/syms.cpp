// Symbols matched (foo, bar1, bar2, ns::f1, ns::f2) and not matched (baz, ns::g, report) by
// list.txt. Compiled -fPIC -fsemantic-interposition: report()'s calls and reads go through the
// PLT and GOT in the shared library.
#include <cstdio>

namespace ns {
__attribute__((noinline)) int f1() { return 1; }
__attribute__((noinline)) int f2(int x) { return x + 2; }
__attribute__((noinline)) int g() { return 3; }
} // namespace ns

extern "C" {
__attribute__((noinline)) int foo() { return 10; }
__attribute__((noinline)) int bar1() { return 11; }
int bar2 = 12;
__attribute__((noinline)) int baz() { return 13; }

void report() {
  std::printf("report: foo=%d bar1=%d bar2=%d baz=%d ns::f1=%d ns::f2=%d ns::g=%d\n", foo(),
              bar1(), bar2, baz(), ns::f1(), ns::f2(0), ns::g());
}
}
