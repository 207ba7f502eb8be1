#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

using Value = std::variant<long, double, std::string, bool>;

std::optional<Value> parse_value(std::string_view s) {
    if (s.empty())
        return std::nullopt;
    if (s == "true" || s == "false")
        return Value{s == "true"};
    if (s.front() == '"' && s.back() == '"' && s.size() >= 2)
        return Value{std::string(s.substr(1, s.size() - 2))};
    std::string tmp(s);
    char *end = nullptr;
    long l = std::strtol(tmp.c_str(), &end, 10);
    if (*end == '\0')
        return Value{l};
    double d = std::strtod(tmp.c_str(), &end);
    if (*end == '\0')
        return Value{d};
    return std::nullopt;
}
