/* libb.a(b.o): b_fn() calls c_fn() in libcc.a(c.o). */
#include <stdio.h>
void c_fn(void);
__attribute__((constructor)) static void b_init(void) { puts("b init"); }
void b_fn(void) {
  puts("b_fn");
  c_fn();
}
