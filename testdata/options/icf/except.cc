// C++ for --icf: template instances with the same code, and functions whose code is the same
// but whose exception tables (LSDAs) differ: lld never folds a function with an LSDA.
#include <cstdio>
#include <stdexcept>

template <typename T> struct Box {
  __attribute__((noinline)) static int twice(int v) { return v * 2 + 1; }
};

struct A {};
struct B {};
int which;

__attribute__((noinline)) void thrower() {
  if (which) throw B();
  throw A();
}
__attribute__((noinline)) int catch_a() {
  try { thrower(); } catch (A &) { return 1; }
  return 0;
}
__attribute__((noinline)) int catch_b() {
  try { thrower(); } catch (B &) { return 2; }
  return 0;
}

int main() {
  std::printf("%d %d %d\n", Box<int>::twice(1), Box<long>::twice(2), Box<char>::twice(3));
  which = 1;
  int r = catch_b();
  which = 0;
  r += catch_a();
  std::printf("caught %d\n", r);
  int (*volatile p)(int) = Box<int>::twice;
  int (*volatile q)(int) = Box<long>::twice;
  std::printf("same template address: %d\n", p == q);
  return 0;
}
