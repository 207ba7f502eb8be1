#pragma once
namespace api {
class Widget {
public:
  explicit Widget(int v);
  ~Widget();
  int value() const;
  static int count(); // not exported by the version script

private:
  int v_;
};
Widget *make_widget(int v);
int make_total();
namespace detail {
int helper(int x); // not exported
}
} // namespace api
extern "C" int c_entry(int x);
