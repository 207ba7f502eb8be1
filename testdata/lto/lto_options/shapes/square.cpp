#include "shapes.h"
Shape::~Shape() {}
namespace {
struct Square : Shape {
  int side;
  explicit Square(int s) : side(s) {}
  int area() const override { return side * side; }
};
} // namespace
Shape *make_square(int side) { return new Square(side); }
// The virtual call LTO devirtualizes when it may assume Square is the only Shape.
__attribute__((noinline)) int total_area(Shape **shapes, int n) {
  int t = 0;
  for (int i = 0; i < n; i++)
    t += shapes[i]->area();
  return t;
}
