/* Compiled with -ffunction-sections. */
#include <stdio.h>
void helper_fn(void);
void help2_fn(void);
__attribute__((constructor)) static void mod_init(void) { helper_fn(); }
void mod_fn(void) { puts("mod_fn"); }
/* Dead: nothing calls mod_dead(). */
void mod_dead(void) { help2_fn(); }
