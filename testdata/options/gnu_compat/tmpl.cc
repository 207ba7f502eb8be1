// Templates instantiated in COMDAT groups, for -r --force-group-allocation.
#include <cstdio>
template <typename T> struct Box {
    T v;
    __attribute__((noinline)) T get() const { return v + 1; }
};
int use_box(int x) { return Box<int>{x}.get() + Box<long>{x}.get(); }
