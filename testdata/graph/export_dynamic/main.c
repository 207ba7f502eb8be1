/* Bitcode. Looks up exported_unused at run time: no symbol reference to it exists. */
#include <dlfcn.h>
#include <stdio.h>
void bc_live(void);
int main(void) {
  bc_live();
  void (*f)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "exported_unused");
  if (f)
    f();
  else
    puts("exported_unused not found");
  puts("main done");
  return 0;
}
