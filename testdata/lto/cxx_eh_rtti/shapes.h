#pragma once
#include <typeinfo>

struct Shape {
  virtual ~Shape();
  virtual const char *name() const = 0;
  virtual long area() const = 0;
};
struct Circle : Shape {
  long r;
  explicit Circle(long r_) : r(r_) {}
  const char *name() const override;
  long area() const override;
};
struct Square : Shape {
  long side;
  explicit Square(long s) : side(s) {}
  const char *name() const override;
  long area() const override;
};
struct ColoredSquare : Square {
  const char *colour;
  ColoredSquare(long s, const char *c) : Square(s), colour(c) {}
  const char *name() const override;
};

// shapes.cpp
Shape *make_shape(int kind);
const std::type_info &square_type();
bool is_square(const Shape &s);     // dynamic_cast in another unit
const Square &as_square(const Shape &s);  // throws std::bad_cast
