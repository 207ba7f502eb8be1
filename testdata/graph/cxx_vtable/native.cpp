// Native, -ffunction-sections. native_dead_make() is dead: the only place a Widget is
// instantiated, so the only reference to its vtable.
#include "widget.h"
#include <cstdio>
Widget *native_dead_make() { return new Widget(); }
void native_live() { std::puts("native_live"); }
