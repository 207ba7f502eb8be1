/* Native, -ffunction-sections. native_dead() is dead: it is the only reference to bc.o's
   bc_dead_only(). */
#include <stdio.h>
void bc_dead_only(void);
void native_dead(void) { bc_dead_only(); }
void native_live(void) { puts("native_live"); }
