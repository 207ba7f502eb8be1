/* libx.a and liby.a reference each other: main -> x1_fn (libx.a(x1.o)) -> y1_fn
   (liby.a(y1.o)) -> x2_fn (libx.a(x2.o), back into the first archive). x2.o's dead x2_dead()
   is the only reference to y2_fn in liby.a(y2.o), whose constructor prints "y2 init". */
#include <stdio.h>
void x1_fn(void);
int main(void) {
  x1_fn();
  puts("main done");
  return 0;
}
