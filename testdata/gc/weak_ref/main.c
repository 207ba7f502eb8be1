/* The only reference to weak_fn is weak: lld does not load libw.a(w.o) for it. */
#include <stdio.h>
extern void weak_fn(void) __attribute__((weak));
int main(void) {
  if (weak_fn)
    weak_fn();
  else
    puts("weak_fn absent");
  return 0;
}
