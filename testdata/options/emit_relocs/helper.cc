// The second instantiation of Box<long>::get (a COMDAT copy the linker discards).
template <typename T> struct Box {
    T v;
    __attribute__((noinline)) T get() const { return v; }
};

long helper_value() {
    Box<long> b{6};
    return b.get();
}
