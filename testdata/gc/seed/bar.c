/* Compiled with -ffunction-sections: bar() and live_in_bar() are in sections of their own. */
#include <stdio.h>
void zip(void);
/* Dead: nothing calls bar(). */
void bar(void) { zip(); }
void live_in_bar(void) { puts("live_in_bar"); }
