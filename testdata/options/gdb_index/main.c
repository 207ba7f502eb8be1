/* gdb_index: the program. Its units name `main`, `trap` and `struct counter` in
   .debug_gnu_pubnames/.debug_gnu_pubtypes (with -ggnu-pubnames). */
#include <stdio.h>

struct counter {
  int hits;
  const char *label;
};

int scale(int v);
int unused_helper(int v);

void trap(struct counter *c) { c->hits++; }

int main(void) {
  struct counter c = {0, "gdb_index"};
  trap(&c);
  printf("%s %d %d\n", c.label, c.hits, scale(20));
  return 0;
}
