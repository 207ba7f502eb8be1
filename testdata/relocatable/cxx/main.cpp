// Catches what lib.cpp throws, across the `-r` object boundary.
#include "tmpl.h"
#include <cstdio>

int main() {
  std::printf("total=%d %s\n", box_total(), describe(7).c_str());
  const char *inputs[] = {"42", "x1", "5000"};
  for (const char *in : inputs) {
    try {
      std::printf("parsed %d\n", parse_in_lib(in));
    } catch (const std::invalid_argument &e) {
      std::printf("invalid: %s\n", e.what());
    } catch (const std::out_of_range &e) {
      std::printf("range: %s\n", e.what());
    }
  }
  std::printf("more=%d %d\n", more_checked(4), more_checked(40));
  std::printf("counter=%d sum=%d\n", shared_counter(), sum(std::vector<int>{5, 6}));
  return 0;
}
