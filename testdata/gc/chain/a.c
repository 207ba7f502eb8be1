/* liba.a(a.o), full chain: a_fn() is live and calls b_fn() in libb.a(b.o). */
#include <stdio.h>
void b_fn(void);
__attribute__((constructor)) static void a_init(void) { puts("a init"); }
void a_fn(void) {
  puts("a_fn");
  b_fn();
}
