#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

struct Node {
    std::string name;
    std::vector<std::shared_ptr<Node>> children;
    std::weak_ptr<Node> parent;
    static int alive;
    explicit Node(std::string n) : name(std::move(n)) { ++alive; }
    ~Node() { --alive; }
};

std::shared_ptr<Node> build_tree();                                          // tree.cpp
void visit(const std::shared_ptr<Node> &n, const std::function<void(const Node &, int)> &f,
           int depth = 0);                                                   // tree.cpp
std::function<int(int)> make_counter(int start);                             // tree.cpp
