// C++ with exceptions, virtual calls, a function-pointer table and TLS: relocations of every
// common kind (PLT32, PC32, GOTPCRELX, 64, TPOFF/TLSGD) and CREL-encoded .rela.eh_frame.
#include <cstdio>
#include <stdexcept>
#include <string>

struct Shape {
    virtual ~Shape() = default;
    virtual int area() const = 0;
};
struct Rect : Shape {
    int w, h;
    Rect(int w, int h) : w(w), h(h) {}
    int area() const override { return w * h; }
};

int twice(int x);
int thrice(int x);
static int (*const table[])(int) = {twice, thrice};
thread_local int calls = 0;

int checked_area(const Shape &s) {
    int a = s.area();
    if (a < 0)
        throw std::invalid_argument("negative area " + std::to_string(a));
    return a;
}

int main() {
    Rect ok(6, 7), bad(-1, 3);
    for (auto f : table)
        std::printf("%d\n", f(checked_area(ok)));
    try {
        checked_area(bad);
    } catch (const std::exception &e) {
        std::printf("caught: %s\n", e.what());
    }
    std::printf("calls=%d\n", calls);
    return 0;
}
