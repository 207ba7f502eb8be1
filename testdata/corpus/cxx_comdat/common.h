#pragma once
// Everything here is emitted in each TU that uses it, as COMDAT groups / weak definitions; the
// linker must keep exactly one copy so addresses and function-local statics are shared.
#include <cstddef>

inline int next_id() {
    static int counter = 0; // one counter for the whole program
    return ++counter;
}

inline const char *shared_name() { return "shared"; }

template <typename T> struct Registry {
    static T values[8];
    static std::size_t count;
    static void add(T v) { values[count++] = v; }
    static T sum() {
        T s = 0;
        for (std::size_t i = 0; i < count; ++i)
            s += values[i];
        return s;
    }
};
template <typename T> T Registry<T>::values[8];
template <typename T> std::size_t Registry<T>::count = 0;

template <typename T> T twice(T v) { return v + v; }

// An inline variable (C++17) with a dynamic initializer guarded in every TU.
inline int inline_var = next_id() * 100;

struct Fn {
    const char *tu;
    int (*id)();
    const char *(*name)();
    long (*twice_long)(long);
    void (*add)(long);
    int *counter_addr;
    int *inline_var_addr;
};

inline int *counter_address() {
    static int dummy = 0;
    return &dummy;
}

Fn tu_a();
Fn tu_b();
