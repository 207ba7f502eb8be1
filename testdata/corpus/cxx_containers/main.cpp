// The standard library's containers and algorithms (templates instantiated in two TUs):
// std::string, std::vector, std::map, std::unordered_map, std::set, std::sort, std::stable_sort,
// std::accumulate, string streams.
#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

std::vector<std::string> split_words(const std::string &text); // words.cpp

int main() {
    const std::string text =
        "The quick brown fox jumps over the lazy dog. The dog sleeps; the fox runs! "
        "A quick brown dog? No: the quick red fox.";
    std::vector<std::string> words = split_words(text);
    std::map<std::string, int> counts;
    std::unordered_map<std::string, int> ucounts;
    for (const auto &w : words) {
        ++counts[w];
        ++ucounts[w];
    }
    std::printf("%zu words, %zu distinct\n", words.size(), counts.size());
    std::vector<std::pair<std::string, int>> by_count(counts.begin(), counts.end());
    std::stable_sort(by_count.begin(), by_count.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    for (size_t i = 0; i < 5; ++i)
        std::printf("  %-6s %d\n", by_count[i].first.c_str(), by_count[i].second);
    int mismatches = 0;
    for (const auto &[w, c] : counts)
        mismatches += ucounts.at(w) != c;
    std::vector<int> lengths;
    std::transform(words.begin(), words.end(), std::back_inserter(lengths),
                   [](const std::string &w) { return int(w.size()); });
    std::sort(lengths.begin(), lengths.end(), std::greater<int>());
    std::set<int> distinct_lengths(lengths.begin(), lengths.end());
    std::ostringstream os;
    for (int l : distinct_lengths)
        os << l << ' ';
    std::printf("longest=%d total=%d distinct lengths: %s\n", lengths.front(),
                std::accumulate(lengths.begin(), lengths.end(), 0), os.str().c_str());
    std::string joined;
    for (const auto &w : words)
        if (w.size() > 4)
            joined += (joined.empty() ? "" : "+") + w;
    std::printf("long words: %s\n", joined.c_str());
    std::printf("find 'lazy' at %zu, rfind 'fox' at %zu, substr: %s\n", text.find("lazy"),
                text.rfind("fox"), text.substr(4, 11).c_str());
    return mismatches;
}
