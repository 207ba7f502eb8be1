namespace geo {
template <typename T> struct Box {
  T w, h;
  T area() const { return w * h; }
};
struct Shape {
  virtual ~Shape() {}
  virtual int area() const = 0;
};
} // namespace geo

namespace {
int scale(int v) { return v * 2; }
} // namespace

int report(const geo::Shape &s) {
  geo::Box<int> b{2, 5};
  return scale(s.area()) - b.area();
}
