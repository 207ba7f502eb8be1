// More instantiations of the header's templates and an exception thrown through a callback.
#include "tmpl.h"

struct Describer {
  std::string name;
  Describer() : name("describer") { shared_counter(); }
};
static Describer describer;   // static initialisation with a constructor call

std::string describe(int n) {
  std::vector<double> d = {0.5, 1.5};
  return describer.name + ":" + std::to_string(n) + ":" + std::to_string(sum(d)) + ":" +
         std::to_string(Box<int>(n).get());
}
