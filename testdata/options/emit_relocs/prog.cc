// --emit-relocs on C++: exceptions (.eh_frame with personality and LSDA, .gcc_except_table),
// a template instantiated here and in helper.cc (the second COMDAT copy is discarded: its
// relocations in .eh_frame and debug info point into a discarded section), a thread_local.
#include <cstdio>
#include <stdexcept>
#include <string>

template <typename T> struct Box {
    T v;
    __attribute__((noinline)) T get() const { return v; }
};

long helper_value();
static thread_local int thrown = 0;

static int check(int x) {
    if (x > 2)
        throw std::runtime_error("too big: " + std::to_string(x));
    return x * 3;
}

int main() {
    Box<long> b{4};
    int sum = 0;
    for (int i = 0; i < 5; i++) {
        try {
            sum += check(i);
        } catch (const std::exception &e) {
            ++thrown;
            std::printf("caught %s\n", e.what());
        }
    }
    std::printf("%d %ld %ld %d\n", sum, b.get(), helper_value(), thrown);
    return 0;
}
