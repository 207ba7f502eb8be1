// Squares only: whole-program visibility is true of this program, so devirtualizing is sound.
#include <cstdio>
#include "shapes.h"
int main() {
  Shape *s[3] = {make_square(2), make_square(3), make_square(4)};
  std::printf("total=%d\n", total_area(s, 3));
  for (Shape *p : s)
    delete p;
  return 0;
}
