#include "nodes.h"

int Node::alive = 0;

static std::shared_ptr<Node> child(const std::shared_ptr<Node> &parent, const char *name) {
    auto c = std::make_shared<Node>(name);
    c->parent = parent;
    parent->children.push_back(c);
    return c;
}

std::shared_ptr<Node> build_tree() {
    auto root = std::make_shared<Node>("root");
    auto a = child(root, "a");
    child(a, "a1");
    child(a, "a2");
    auto b = child(root, "b");
    child(b, "b1");
    return root;
}

void visit(const std::shared_ptr<Node> &n, const std::function<void(const Node &, int)> &f,
           int depth) {
    f(*n, depth);
    for (const auto &c : n->children)
        visit(c, f, depth + 1);
}

std::function<int(int)> make_counter(int start) {
    auto state = std::make_shared<int>(start);
    return [state](int step) { return *state += step; };
}
