// gdb_index: C++ names in the index (namespaces, a class with methods, templates, an enum),
// without the C++ runtime (the program links as C), so that both linkers place the same code.
extern "C" int printf(const char *, ...);

namespace geo {
enum class Kind { square, rect };

struct Point {
  int x, y;
};

template <typename T> T twice(T v) { return v + v; }

class Shape {
public:
  Shape(Kind k, Point a, Point b) : kind(k), lo(a), hi(b) {}
  int area() const { return (hi.x - lo.x) * (hi.y - lo.y); }
  Kind kind;
  Point lo, hi;
};

namespace detail {
int checksum(const Shape &s) { return twice(s.area()) + static_cast<int>(s.kind); }
} // namespace detail
} // namespace geo

int shape_report(int n);

int main() {
  geo::Shape s(geo::Kind::rect, {0, 0}, {3, 4});
  printf("area %d sum %d twice %.1f report %d\n", s.area(), geo::detail::checksum(s),
         geo::twice(1.25), shape_report(5));
  return 0;
}
