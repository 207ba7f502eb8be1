// std::shared_ptr / std::weak_ptr / std::unique_ptr with custom deleters, std::function holding
// lambdas with captured shared state, std::bind, across two TUs; reference counts and object
// lifetimes are checked.
#include "nodes.h"
#include <algorithm>
#include <cstdio>

static int deleted = 0;

int main() {
    int failures = 0;
    {
        auto root = build_tree();
        std::printf("alive after build: %d\n", Node::alive);
        std::string order;
        int max_depth = 0;
        visit(root, [&](const Node &n, int d) {
            order += std::string(d, '.') + n.name + ' ';
            max_depth = std::max(max_depth, d);
        });
        std::printf("visit: %s(max depth %d)\n", order.c_str(), max_depth);
        auto a1 = root->children[0]->children[0];
        auto parent = a1->parent.lock();
        std::printf("a1's parent: %s, use_count(a)=%ld\n", parent ? parent->name.c_str() : "none",
                    root->children[0].use_count());
        root.reset();
        std::printf("alive after dropping root: %d (a, a1, a2 still held)\n", Node::alive);
        failures += Node::alive != 3; // a (held via `parent`) and its children
    }
    std::printf("alive at end of scope: %d\n", Node::alive);
    failures += Node::alive != 0;

    auto counter = make_counter(10);
    std::function<int(int)> copy = counter; // shares the captured state
    counter(5);
    std::printf("counter: %d\n", copy(1));
    auto adder = std::bind([](int a, int b, int c) { return a * 100 + b * 10 + c; }, 1,
                           std::placeholders::_2, std::placeholders::_1);
    std::printf("bind: %d\n", adder(3, 2));
    {
        std::unique_ptr<int, void (*)(int *)> p(new int(7), [](int *q) {
            ++deleted;
            delete q;
        });
        std::shared_ptr<int> sp(new int(8), [](int *q) {
            deleted += 10;
            delete q;
        });
        std::printf("unique=%d shared=%d\n", *p, *sp);
    }
    std::printf("deleted=%d\n", deleted);
    std::function<void()> empty;
    try {
        empty();
    } catch (const std::bad_function_call &) {
        std::printf("bad_function_call caught\n");
    }
    return failures + (deleted != 11) + (copy(0) != 16);
}
