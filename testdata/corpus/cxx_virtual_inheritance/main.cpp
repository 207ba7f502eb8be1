// Virtual inheritance across TUs: the shared virtual base is reached through vbase offsets in
// vtables (and VTTs / construction vtables) emitted in several translation units.
#include "hier.h"
#include <cstdio>

int main() {
    Bottom *b = make_bottom();
    Left *l = b;
    Right *r = b;
    Base *base = b;
    int failures = 0;
    std::printf("who via Base=%s via Left=%s via Right=%s\n", base->who(), l->who(), r->who());
    std::printf("base id via Left=%d via Right=%d\n", l->base_id(), r->base_id());
    std::printf("left_value=%d right_value=%d\n", l->left_value(), r->right_value());
    std::printf("sum_left=%d sum_right=%d\n", sum_through_left(*b), sum_through_right(*b));
    if (static_cast<Base *>(l) != static_cast<Base *>(r))
        ++failures; // one shared Base subobject
    if (dynamic_cast<Bottom *>(base) != b)
        ++failures;
    if (dynamic_cast<Right *>(l) != r) // cross cast
        ++failures;
    Left plain_left;
    std::printf("plain Left: who=%s id=%d left_value=%d\n", plain_left.who(), plain_left.base_id(),
                plain_left.left_value());
    if (dynamic_cast<Right *>(static_cast<Base *>(&plain_left)) != nullptr)
        ++failures;
    delete base; // virtual destructor through the virtual base
    std::printf("failures=%d\n", failures);
    return failures;
}
