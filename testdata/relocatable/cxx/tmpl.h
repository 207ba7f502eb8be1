// Templates and inline functions instantiated in every file that includes this: COMDAT groups.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

template <typename T> struct Box {
  T value;
  explicit Box(T v) : value(v) {}
  T get() const { return value; }
  T checked(T limit) const {
    if (value > limit)
      throw std::out_of_range("box over " + std::to_string(limit));
    return value;
  }
};

inline int shared_counter() {
  static int n = 0;  // one copy in the program: a COMDAT group with a guard variable
  return ++n;
}

template <typename T> T sum(const std::vector<T> &v) {
  T s{};
  for (const T &x : v)
    s += x;
  return s;
}

int parse_in_lib(const char *s);
int box_total();
std::string describe(int);
int more_checked(int);
