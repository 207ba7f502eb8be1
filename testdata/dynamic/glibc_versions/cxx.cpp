// libstdc++ and libgcc_s versions (GLIBCXX_*, CXXABI_*, GCC_*).
#include <map>
#include <stdexcept>
#include <string>

extern "C" int cxx_part(void) {
  std::map<std::string, int> m{{"a", 1}, {"b", 2}};
  try {
    throw std::runtime_error("x");
  } catch (const std::exception &) {
    m["c"] = 3;
  }
  return (int)m.size();
}
