// COMDAT across three TUs: the same inline functions, template instantiations, template static
// data members, function-local statics and an inline variable are emitted in a.cpp, b.cpp and
// main.cpp; the program checks that there is exactly one of each.
#include "common.h"
#include <cstdio>
#include <initializer_list>

int main() {
    Fn m{"main", &next_id, &shared_name, &twice<long>, &Registry<long>::add, counter_address(),
         &inline_var};
    Fn a = tu_a();
    Fn b = tu_b();
    Registry<long>::add(twice<long>(11));
    Registry<int>::add(next_id());
    int failures = 0;
    for (const Fn *f : {&a, &b}) {
        bool same = f->id == m.id && f->name == m.name && f->twice_long == m.twice_long &&
                    f->add == m.add && f->counter_addr == m.counter_addr &&
                    f->inline_var_addr == m.inline_var_addr;
        std::printf("tu %s: same addresses as main: %s\n", f->tu, same ? "yes" : "NO");
        failures += !same;
    }
    std::printf("Registry<long>: count=%zu sum=%ld\n", Registry<long>::count, Registry<long>::sum());
    std::printf("Registry<int>: count=%zu sum=%d\n", Registry<int>::count, Registry<int>::sum());
    std::printf("inline_var=%d next_id now=%d name=%s\n", inline_var, next_id(), shared_name());
    if (Registry<long>::sum() != 38 || Registry<int>::count != 3)
        ++failures;
    return failures;
}
