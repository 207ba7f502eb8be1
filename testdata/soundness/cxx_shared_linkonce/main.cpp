#include <cstdio>
struct Widget { virtual ~Widget() {} virtual int get() const { return 7; } };
Widget *make_widget(); int use_widget(Widget *w);
int main() { std::printf("%d\n", use_widget(make_widget())); }
