#include "api.h"

static int live, total;

namespace api {
Widget::Widget(int v) : v_(detail::helper(v)) {
  ++live;
  total += v_;
}
Widget::~Widget() { --live; }
int Widget::value() const { return v_; }
int Widget::count() { return live; }
Widget *make_widget(int v) { return new Widget(v); }
int make_total() { return total; }
namespace detail {
int helper(int x) { return x * 2; }
} // namespace detail
} // namespace api

extern "C" int c_entry(int x) { return x + api::Widget::count(); }
int unlisted_function(int x) { return x; }
