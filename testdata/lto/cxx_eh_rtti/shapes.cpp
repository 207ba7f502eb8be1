#include "shapes.h"
#include <cstdio>

Shape::~Shape() {}
const char *Circle::name() const { return "circle"; }
long Circle::area() const { return 3 * r * r; }
const char *Square::name() const { return "square"; }
long Square::area() const { return side * side; }
const char *ColoredSquare::name() const { return colour; }

Shape *make_shape(int kind) {
  switch (kind) {
  case 0: return new Circle(2);
  case 1: return new Square(3);
  default: return new ColoredSquare(4, "red square");
  }
}

const std::type_info &square_type() { return typeid(Square); }

bool is_square(const Shape &s) { return dynamic_cast<const Square *>(&s) != nullptr; }

const Square &as_square(const Shape &s) { return dynamic_cast<const Square &>(s); }
