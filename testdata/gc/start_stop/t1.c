#include "item.h"
__attribute__((section("gc_items"), used)) struct item item_a = {"a", 1};
