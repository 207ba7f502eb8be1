// Throws for main.cpp to catch; instantiates the same templates as main.cpp.
#include "tmpl.h"
#include <cstdlib>

static std::vector<int> made = {1, 2, 3, 4};   // static initialisation
static int first_count = shared_counter();

int parse_in_lib(const char *s) {
  char *end;
  long v = std::strtol(s, &end, 10);
  if (*end)
    throw std::invalid_argument(std::string("not a number: ") + s);
  return Box<int>(static_cast<int>(v)).checked(1000);
}

int box_total() { return sum(made) + Box<long>(first_count).get(); }
