// The program scripts/demo links with weld: a little word-frequency counter with exceptions,
// templates, TLS and static initialisers, so the link exercises COMDATs, .eh_frame, IFUNCs
// (through glibc) and init arrays. Functions nobody calls are there for the GC report.
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

static thread_local int calls = 0;

struct Registry {
  std::vector<std::string> names;
  Registry() { names.push_back("init"); }
};
static Registry registry;

std::map<std::string, int> count_words(const std::string &text) {
  ++calls;
  std::map<std::string, int> counts;
  std::istringstream in(text);
  std::string w;
  while (in >> w) counts[w]++;
  if (counts.empty()) throw std::invalid_argument("no words");
  return counts;
}

// Never called: with --gc-sections its section is reported as removed.
int unused_helper(int x) { return x * 7 + static_cast<int>(registry.names.size()); }
double unused_average(const std::vector<double> &v) {
  double s = 0;
  for (double d : v) s += d;
  return v.empty() ? 0 : s / v.size();
}

int main() {
  auto counts = count_words("the quick brown fox jumps over the lazy dog the end");
  std::vector<std::pair<std::string, int>> top(counts.begin(), counts.end());
  std::sort(top.begin(), top.end(), [](auto &a, auto &b) { return a.second > b.second || (a.second == b.second && a.first < b.first); });
  for (size_t i = 0; i < 3 && i < top.size(); i++) std::printf("%s %d\n", top[i].first.c_str(), top[i].second);
  try {
    count_words("");
  } catch (const std::exception &e) {
    std::printf("caught: %s\n", e.what());
  }
  std::printf("calls=%d registry=%s\n", calls, registry.names[0].c_str());
  return 0;
}
