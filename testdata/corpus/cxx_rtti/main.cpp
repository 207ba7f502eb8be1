// RTTI across translation units: typeid names and equality, dynamic_cast up, down and across,
// type_info of a template instantiation emitted in two TUs (COMDAT, compared by name/address).
#include "shapes.h"
#include <cstdio>
#include <typeinfo>

int main() {
    int failures = 0;
    for (int kind = 0; kind < 4; ++kind) {
        Shape *s = make_shape(kind);
        const std::type_info &ti = typeid(*s);
        bool is_rect = dynamic_cast<Rect *>(s) != nullptr;
        bool is_square = dynamic_cast<Square *>(s) != nullptr;
        bool is_circle = dynamic_cast<Circle *>(s) != nullptr;
        std::printf("%d: %-8s typeid=%-20s area=%5.1f rect=%d square=%d circle=%d\n", kind,
                    s->name().c_str(), ti.name(), s->area(), is_rect, is_square, is_circle);
        if (kind == 2 && ti != typeid(Square))
            ++failures;
        if (kind == 3 && ti != typeid(geo::Tagged<long>))
            ++failures;
        if (kind == 3 && ti == typeid(geo::Tagged<int>))
            ++failures;
        void *most_derived = dynamic_cast<void *>(s);
        if (most_derived != static_cast<void *>(s))
            ++failures;
        delete s;
    }
    try {
        Shape *s = make_shape(0);
        Rect &r = dynamic_cast<Rect &>(*s); // throws std::bad_cast
        std::printf("no throw %f\n", r.w);
        ++failures;
    } catch (const std::bad_cast &e) {
        std::printf("bad_cast caught: %s\n", typeid(e).name());
    }
    std::printf("typeid(int)=%s typeid(const char*)=%s typeid(Shape*)=%s\n", typeid(int).name(),
                typeid(const char *).name(), typeid(Shape *).name());
    std::printf("failures=%d\n", failures);
    return failures;
}
