/* main.o -> liba.a(a.o) -> libb.a(b.o) -> libcc.a(c.o): each member is referenced only by the
   previous one. */
#include <stdio.h>
void a_fn(void);
int main(void) {
  a_fn();
  puts("main done");
  return 0;
}
