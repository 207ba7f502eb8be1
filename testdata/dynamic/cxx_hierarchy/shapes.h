// A class hierarchy exported by libshapes.so and extended by the program.
#pragma once
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

namespace shapes {

class Shape {
public:
  explicit Shape(std::string name);
  virtual ~Shape(); // key function: vtable and typeinfo live in the library
  virtual double area() const = 0;
  virtual std::string describe() const;
  const std::string &name() const { return name_; }
  static int live_count();

protected:
  std::string name_;
};

class Circle : public Shape {
public:
  explicit Circle(double r);
  double area() const override;
  std::string describe() const override;
  double radius() const { return r_; }

private:
  double r_;
};

class Rect : public Shape {
public:
  Rect(double w, double h);
  double area() const override;

protected:
  Rect(std::string name, double w, double h);

private:
  double w_, h_;
};

class Square final : public Rect {
public:
  explicit Square(double side);
  std::string describe() const override;
};

std::unique_ptr<Shape> make(const std::string &kind, double a, double b = 0);
double total_area(const std::vector<std::unique_ptr<Shape>> &shapes);
const std::type_info &circle_type();
bool lib_is_circle(const Shape &s);
bool lib_is_rect(const Shape &s);

// A template static data member (vague linkage): the program's and the library's copies must
// be one object at run time.
template <class T> struct Registry {
  static int count;
  static void add() { ++count; }
};
template <class T> int Registry<T>::count = 0;
int registry_add_from_lib();

} // namespace shapes
