#include <cstdio>

namespace geo {
template <typename T> struct Box {
  T w, h;
  T area() const { return w * h; }
};
struct Shape {
  virtual ~Shape() {}
  virtual int area() const = 0;
};
struct Square : Shape {
  int side;
  explicit Square(int s) : side(s) {}
  int area() const override { return side * side; }
};
} // namespace geo

int report(const geo::Shape &s);

int main() {
  geo::Box<int> b{3, 4};
  geo::Box<double> d{1.5, 2.0};
  geo::Square sq(5);
  std::printf("area %d %g report %d\n", b.area(), d.area(), report(sq));
  return 0;
}
