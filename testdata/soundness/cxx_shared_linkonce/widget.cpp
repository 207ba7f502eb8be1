struct Widget { virtual ~Widget() {} virtual int get() const { return 7; } };
Widget *make_widget() { return new Widget; }
int use_widget(Widget *w) { int r = w->get(); delete w; return r; }
