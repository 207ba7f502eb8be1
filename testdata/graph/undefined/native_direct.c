/* Native, -ffunction-sections. The dead native_dead() calls missing_native(), which no input
   defines. */
#include <stdio.h>
void missing_native(void);
void native_dead(void) { missing_native(); }
void native_live(void) { puts("native_live"); }
