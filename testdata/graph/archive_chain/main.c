/* Bitcode. main -> liba.a(a.o) (bitcode) -> libb.a(b.o) (native) -> libcc.a(c.o) (bitcode). */
#include <stdio.h>
void a_fn(void);
int main(void) {
  a_fn();
  puts("main done");
  return 0;
}
