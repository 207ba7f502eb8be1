// A throw and a catch: the personality routine is reached only through .eh_frame (the CIE's
// personality pointer, DW.ref.__gxx_personality_v0).
#include <cstdio>
#include <stdexcept>
__attribute__((noinline)) void thrower(int x) {
  if (x > 0)
    throw std::runtime_error("boom");
}
int main(int argc, char **) {
  try {
    thrower(argc);
  } catch (const std::exception &e) {
    std::printf("caught %s\n", e.what());
  }
  return 0;
}
