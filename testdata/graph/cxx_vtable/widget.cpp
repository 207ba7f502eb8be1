// Bitcode. Widget's vtable and methods; widget_api_version() is the only live function.
#include "widget.h"
#include <cstdio>
Widget::~Widget() { std::puts("~Widget"); }
const char *Widget::draw() const { return "widget drawn"; }
int widget_api_version() { return 3; }
