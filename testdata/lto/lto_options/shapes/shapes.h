// A class hierarchy for whole-program devirtualization: Shape has one implementation in
// bitcode (Square, square.cpp) and, for the programs that link tri.o, one in native code.
struct Shape {
  virtual ~Shape();
  virtual int area() const = 0;
};
Shape *make_square(int side);
Shape *make_tri(int base, int height);
int total_area(Shape **shapes, int n);
