#pragma once
#include <string>

struct Shape {
    virtual ~Shape();
    virtual double area() const = 0;
    virtual std::string name() const;
};
struct Circle : Shape {
    double r;
    explicit Circle(double r) : r(r) {}
    double area() const override;
    std::string name() const override;
};
struct Rect : Shape {
    double w, h;
    Rect(double w, double h) : w(w), h(h) {}
    double area() const override;
};
struct Square final : Rect {
    explicit Square(double s) : Rect(s, s) {}
    std::string name() const override;
};
namespace geo {
template <typename T> struct Tagged : Shape {
    T tag;
    explicit Tagged(T t) : tag(t) {}
    double area() const override { return 0; }
};
} // namespace geo

Shape *make_shape(int kind); // shapes.cpp
