/* libf.a(f.o): forced_sym (a -u root) calls g_fn() in libg.a(g.o). */
#include <stdio.h>
void g_fn(void);
__attribute__((constructor)) static void f_init(void) { puts("f init"); }
void forced_sym(void) {
  puts("forced_sym");
  g_fn();
}
