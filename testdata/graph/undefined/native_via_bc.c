/* Native, -ffunction-sections. The dead native_dead() is the only reference to bc.o's
   bc_calls_missing(). */
#include <stdio.h>
void bc_calls_missing(void);
void native_dead(void) { bc_calls_missing(); }
void native_live(void) { puts("native_live"); }
