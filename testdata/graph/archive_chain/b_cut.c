/* Native, -ffunction-sections, libb.a(b.o): only the dead b_dead() calls libcc.a's c_fn(). */
#include <stdio.h>
void c_fn(void);
__attribute__((constructor)) static void b_init(void) { puts("b init"); }
void b_dead(void) { c_fn(); }
void b_fn(void) { puts("b_fn"); }
