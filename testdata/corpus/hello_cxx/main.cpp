// Hello world in C++: iostream (static init of std::cout through ios_base::Init), std::string,
// manipulators, std::endl flushing.
#include <iomanip>
#include <iostream>
#include <string>

int main() {
    std::string who = "world";
    std::cout << "hello, " << who << '!' << std::endl;
    std::cout << std::setw(6) << 42 << '|' << std::hex << 255 << std::dec << '|'
              << std::setprecision(3) << 3.14159 << std::endl;
    std::cerr << "this goes to stderr\n";
    return who.size() == 5 ? 0 : 1;
}
