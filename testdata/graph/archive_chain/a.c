/* Bitcode, liba.a(a.o). */
#include <stdio.h>
void b_fn(void);
__attribute__((constructor)) static void a_init(void) { puts("a init"); }
void a_fn(void) {
  puts("a_fn");
  b_fn();
}
