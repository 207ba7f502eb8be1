// Uses and extends libshapes.so's class hierarchy: virtual calls both ways, RTTI and
// dynamic_cast across the boundary, an exception from the library, a shared template static.
#include "shapes.h"
#include <cstdio>
#include <stdexcept>

namespace {
struct Triangle : shapes::Shape {
  Triangle(double b, double h) : Shape("triangle"), b_(b), h_(h) {}
  double area() const override { return b_ * h_ / 2; }
  double b_, h_;
};
} // namespace

int main() {
  int fails = 0;
  auto check = [&](bool ok, const char *what) {
    std::printf("%-40s %s\n", what, ok ? "ok" : "FAILED");
    fails += !ok;
  };
  std::vector<std::unique_ptr<shapes::Shape>> v;
  v.push_back(shapes::make("circle", 2));
  v.push_back(shapes::make("rect", 2, 3));
  v.push_back(shapes::make("square", 4));
  v.push_back(std::make_unique<Triangle>(3, 4));
  for (const auto &s : v)
    std::printf("%s | %s\n", s->name().c_str(), s->describe().c_str());
  std::printf("live=%d total=%.2f\n", shapes::Shape::live_count(), shapes::total_area(v));

  check(typeid(*v[0]) == typeid(shapes::Circle), "typeid(object from lib) == typeid(Circle)");
  check(shapes::circle_type() == typeid(shapes::Circle), "lib's typeid(Circle) == exe's");
  check(dynamic_cast<shapes::Circle *>(v[0].get()) != nullptr, "exe: dynamic_cast to Circle");
  check(dynamic_cast<shapes::Rect *>(v[2].get()) != nullptr, "exe: Square is a Rect");
  check(dynamic_cast<shapes::Square *>(v[1].get()) == nullptr, "exe: Rect is not a Square");
  check(dynamic_cast<Triangle *>(v[3].get()) != nullptr, "exe: dynamic_cast to Triangle");
  check(!shapes::lib_is_circle(*v[3]), "lib: Triangle is not a Circle");
  check(shapes::lib_is_rect(*v[2]), "lib: Square is a Rect");
  check(shapes::lib_is_circle(*v[0]), "lib: Circle is a Circle");
  std::printf("typeid names: %s %s\n", typeid(*v[2]).name(), typeid(*v[3]).name());

  try {
    shapes::make("hexagon", 1);
    check(false, "exception from make");
  } catch (const std::invalid_argument &e) {
    std::printf("caught from lib: %s\n", e.what());
  }

  shapes::Registry<int>::add();
  int from_lib = shapes::registry_add_from_lib();
  std::printf("registry: lib sees %d, exe sees %d\n", from_lib, shapes::Registry<int>::count);
  check(from_lib == 2 && shapes::Registry<int>::count == 2, "one Registry<int>::count");

  v.clear();
  std::printf("live after clear=%d\n", shapes::Shape::live_count());
  return fails;
}
