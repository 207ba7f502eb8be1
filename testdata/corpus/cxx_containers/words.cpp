#include <sstream>
#include <string>
#include <vector>

// Splits text into lower-case words.
std::vector<std::string> split_words(const std::string &text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string w;
    while (in >> w) {
        std::string clean;
        for (char c : w)
            if (c >= 'A' && c <= 'Z')
                clean += char(c - 'A' + 'a');
            else if (c >= 'a' && c <= 'z')
                clean += c;
        if (!clean.empty())
            out.push_back(clean);
    }
    return out;
}
