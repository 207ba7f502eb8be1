/* Known liveness chains for --why-live (compiled -ffunction-sections -fdata-sections):
     _start -> main -> middle_fn (a.o) -> deep_fn (b.o)
     main -> gvar_user -> gvar (a global variable)
     main -> uses_local -> local_fn (a static function)
     .init_array -> ctor_fn -> ctor_helper (b.o)
     kept_fn: __attribute__((retain)), referenced by nothing
     gl_one, gl_two: live; gl_dead, dead_fn: dead */
#include <stdio.h>
int middle_fn(int);
int gvar_user(void);
int uses_local(int);
int gl_one(void);
int gl_two(void);
int main(void) {
  printf("%d %d %d %d\n", middle_fn(1), gvar_user(), uses_local(2), gl_one() + gl_two());
  return 0;
}
