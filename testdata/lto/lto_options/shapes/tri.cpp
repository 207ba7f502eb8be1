// Compiled natively, with or without RTTI: a Shape LTO cannot see. Its vtable (_ZTV3Tri) is
// global, as native C++ vtables of classes with external linkage are.
#include "shapes.h"
struct Tri : Shape {
  int b, h;
  Tri(int b, int h) : b(b), h(h) {}
  int area() const override { return b * h / 2; }
};
Shape *make_tri(int base, int height) { return new Tri(base, height); }
