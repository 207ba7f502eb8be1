// Standard containers and streams: thousands of names (the hash table's large-count bucket
// sizing), many abbreviations, and parents in namespaces and classes.
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace inventory {
struct Item {
  std::string name;
  int count;
};
std::map<std::string, int> tally(const std::vector<Item> &items);
} // namespace inventory

int main() {
  std::vector<inventory::Item> items{{"bolt", 3}, {"nut", 5}, {"bolt", 4}};
  auto t = inventory::tally(items);
  for (const auto &[k, v] : t)
    std::cout << k << '=' << v << ' ';
  std::cout << '\n';
  return 0;
}
