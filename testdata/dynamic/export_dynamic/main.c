/* Looks its own symbols up with dlsym(RTLD_DEFAULT): they are found only if the link exported
   them (--export-dynamic, --export-dynamic-symbol). */
#include <dlfcn.h>
#include <stdio.h>

int exe_answer(void) { return 42; }
int exe_data = 7;
int exe_other(void) { return 5; }

int main(void) {
  int (*f)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "exe_answer");
  int *d = (int *)dlsym(RTLD_DEFAULT, "exe_data");
  int (*o)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "exe_other");
  printf("exe_answer: %s", f ? "found" : "not found");
  if (f)
    printf(", returns %d, is the program's: %s", f(), f == exe_answer ? "yes" : "no");
  printf("\nexe_data: %s", d ? "found" : "not found");
  if (d)
    printf(", value %d, is the program's: %s", *d, d == &exe_data ? "yes" : "no");
  printf("\nexe_other: %s\n", o ? "found" : "not found");
  printf("main: %s\n", dlsym(RTLD_DEFAULT, "main") ? "found" : "not found");
  return 0;
}
