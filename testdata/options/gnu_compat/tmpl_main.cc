#include <cstdio>
template <typename T> struct Box {
    T v;
    __attribute__((noinline)) T get() const { return v + 1; }
};
int use_box(int x);
int main() { std::printf("%d %d\n", use_box(3), Box<int>{1}.get()); }
