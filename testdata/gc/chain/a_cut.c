/* liba.a(a.o), chain cut by dead code: only the dead a_dead() calls b_fn() in libb.a(b.o). */
#include <stdio.h>
void b_fn(void);
__attribute__((constructor)) static void a_init(void) { puts("a init"); }
void a_fn(void) { puts("a_fn"); }
/* Dead: nothing calls a_dead(). */
void a_dead(void) { b_fn(); }
