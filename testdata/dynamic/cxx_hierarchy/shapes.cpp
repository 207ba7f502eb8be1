#include "shapes.h"
#include <sstream>
#include <stdexcept>

namespace shapes {

static int live = 0;

Shape::Shape(std::string name) : name_(std::move(name)) { ++live; }
Shape::~Shape() { --live; }
std::string Shape::describe() const {
  std::ostringstream os;
  os << name_ << " with area " << area();
  return os.str();
}
int Shape::live_count() { return live; }

Circle::Circle(double r) : Shape("circle"), r_(r) {}
double Circle::area() const { return 3.0 * r_ * r_; }
std::string Circle::describe() const { return "round " + Shape::describe(); }

Rect::Rect(double w, double h) : Shape("rect"), w_(w), h_(h) {}
Rect::Rect(std::string name, double w, double h) : Shape(std::move(name)), w_(w), h_(h) {}
double Rect::area() const { return w_ * h_; }

Square::Square(double side) : Rect("square", side, side) {}
std::string Square::describe() const { return "square: " + Rect::describe(); }

std::unique_ptr<Shape> make(const std::string &kind, double a, double b) {
  if (kind == "circle")
    return std::make_unique<Circle>(a);
  if (kind == "rect")
    return std::make_unique<Rect>(a, b);
  if (kind == "square")
    return std::make_unique<Square>(a);
  throw std::invalid_argument("unknown shape: " + kind);
}

double total_area(const std::vector<std::unique_ptr<Shape>> &shapes) {
  double t = 0;
  for (const auto &s : shapes)
    t += s->area();
  return t;
}

const std::type_info &circle_type() { return typeid(Circle); }
bool lib_is_circle(const Shape &s) { return dynamic_cast<const Circle *>(&s) != nullptr; }
bool lib_is_rect(const Shape &s) { return dynamic_cast<const Rect *>(&s) != nullptr; }

int registry_add_from_lib() {
  Registry<int>::add();
  return Registry<int>::count;
}

} // namespace shapes
