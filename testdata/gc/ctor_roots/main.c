/* main -> mod_fn in libmod.a(mod.o). mod.o's constructor calls helper_fn in libhelp.a(help.o):
   constructors are roots, so help.o must be loaded. mod.o's dead mod_dead() is the only
   reference to help2_fn in libhelp.a(help2.o). */
#include <stdio.h>
void mod_fn(void);
int main(void) {
  mod_fn();
  puts("main done");
  return 0;
}
