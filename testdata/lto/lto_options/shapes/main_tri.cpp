// Two squares and a native triangle: devirtualizing total_area to Square::area is wrong here
// (total=29 instead of 23) unless the vtable validation catches the native class.
#include <cstdio>
#include "shapes.h"
int main() {
  Shape *s[3] = {make_square(2), make_square(3), make_tri(4, 5)};
  std::printf("total=%d\n", total_area(s, 3));
  for (Shape *p : s)
    delete p;
  return 0;
}
