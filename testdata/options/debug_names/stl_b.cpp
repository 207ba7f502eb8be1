#include <map>
#include <string>
#include <vector>

namespace inventory {
struct Item {
  std::string name;
  int count;
};
std::map<std::string, int> tally(const std::vector<Item> &items) {
  std::map<std::string, int> out;
  for (const Item &i : items)
    out[i.name] += i.count;
  return out;
}
} // namespace inventory
