// C++17: std::variant with std::visit and std::get_if, std::optional, std::string_view,
// structured bindings, if constexpr, fold expressions, std::bad_variant_access.
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

using Value = std::variant<long, double, std::string, bool>;
std::optional<Value> parse_value(std::string_view s); // parse.cpp

template <typename... T> auto sum(T... v) { return (v + ... + 0); }

struct Describe {
    std::string operator()(long v) const { return "long " + std::to_string(v); }
    std::string operator()(double v) const {
        char buf[32];
        std::snprintf(buf, sizeof buf, "double %.3f", v);
        return buf;
    }
    std::string operator()(const std::string &v) const { return "string '" + v + "'"; }
    std::string operator()(bool v) const { return v ? "bool true" : "bool false"; }
};

int main() {
    const char *inputs[] = {"42", "-3.5", "\"hi there\"", "true", "", "x1", "1e3"};
    int parsed = 0;
    for (const char *in : inputs) {
        std::optional<Value> v = parse_value(in);
        if (!v) {
            std::printf("%-12s -> nullopt\n", in);
            continue;
        }
        ++parsed;
        std::printf("%-12s -> index %zu, %s\n", in, v->index(), std::visit(Describe{}, *v).c_str());
        std::visit(
            [](const auto &x) {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
                    std::printf("             numeric, doubled: %g\n", double(x) * 2);
            },
            *v);
    }
    Value v = 5L;
    try {
        std::get<std::string>(v);
    } catch (const std::bad_variant_access &) {
        std::printf("bad_variant_access caught\n");
    }
    if (auto *p = std::get_if<long>(&v))
        std::printf("get_if<long>: %ld\n", *p);
    auto [a, b] = std::pair{std::string_view("left"), 2};
    std::optional<int> none;
    std::printf("binding: %.*s %d; sum=%d; value_or=%d\n", int(a.size()), a.data(), b,
                sum(1, 2, 3, 4), none.value_or(-1));
    return parsed == 5 ? 0 : 1;
}
