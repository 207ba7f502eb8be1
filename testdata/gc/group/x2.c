#include <stdio.h>
void y2_fn(void);
void x2_fn(void) { puts("x2_fn"); }
/* Dead: nothing calls x2_dead(). */
void x2_dead(void) { y2_fn(); }
