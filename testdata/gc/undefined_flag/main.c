/* Nothing here references libf.a or libg.a: only -u forced_sym loads libf.a(f.o). */
#include <stdio.h>
int main(void) {
  puts("main done");
  return 0;
}
