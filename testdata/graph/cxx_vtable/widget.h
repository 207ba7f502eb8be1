// Widget's key function (~Widget) is defined in widget.cpp, so its vtable, typeinfo and methods
// live in widget.o (bitcode). The constructor is inline: whoever instantiates a Widget refers
// to the vtable directly.
struct Widget {
  Widget() : id(1) {}
  virtual ~Widget();
  virtual const char *draw() const;
  int id;
};
int widget_api_version();
