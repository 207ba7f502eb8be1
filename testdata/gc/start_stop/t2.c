#include "item.h"
__attribute__((section("gc_items"), used)) static struct item item_b = {"b", 2};
