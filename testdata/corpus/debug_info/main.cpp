// C++ with -g: templates, a class with methods, a lambda, a namespace, inline functions (their
// DWARF and line tables come from several TUs and COMDAT groups).
#include <cstdio>
#include <map>
#include <string>
#include <vector>

extern "C" {
struct stats {
    long sum;
    int count;
    int last;
};
void stats_add(struct stats *s, int v);
}

namespace dbg {
template <typename T> class Accumulator {
  public:
    void add(const T &v) { items_.push_back(v); }
    T total() const {
        T t{};
        for (const T &v : items_)
            t += v;
        return t;
    }
    size_t size() const { return items_.size(); }

  private:
    std::vector<T> items_;
};
} // namespace dbg

int main() {
    dbg::Accumulator<int> ints;
    dbg::Accumulator<std::string> strs;
    stats s{0, 0, 0};
    for (int i = 1; i <= 10; ++i) {
        ints.add(i * i);
        stats_add(&s, i);
    }
    for (const char *w : {"debug", "-", "info"})
        strs.add(w);
    std::map<std::string, int> m;
    auto count = [&m](const std::string &k) { return ++m[k]; };
    count("a");
    count("b");
    count("a");
    std::printf("ints: %zu total %d; strs: %s; stats: sum=%ld count=%d last=%d; map a=%d b=%d\n",
                ints.size(), ints.total(), strs.total().c_str(), s.sum, s.count, s.last, m["a"],
                m["b"]);
    return ints.total() == 385 && s.sum == 55 ? 0 : 1;
}
