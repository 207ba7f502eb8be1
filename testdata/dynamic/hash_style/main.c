/* Calls the library directly (symbol lookup through the library's hash table at load time) and
   looks every symbol up with dlsym, plus names that do not exist. */
#include <dlfcn.h>
#include <stdio.h>

int hs_sum(void);
int hs_fn_37(void);
extern int hs_data_15;

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  printf("hs_sum()=%d hs_fn_37()=%d hs_data_15=%d\n", hs_sum(), hs_fn_37(), hs_data_15);
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  int found = 0, right = 0;
  char name[32];
  for (int n = 10; n <= 59; n++) {
    snprintf(name, sizeof name, "hs_fn_%d", n);
    int (*f)(void) = (int (*)(void))dlsym(h, name);
    found += f != 0;
    right += f && f() == n;
  }
  for (int n = 10; n <= 29; n++) {
    snprintf(name, sizeof name, "hs_data_%d", n);
    int *d = (int *)dlsym(h, name);
    found += d != 0;
    right += d && *d == n * 3;
  }
  const char *missing[] = {"hs_fn_9", "hs_fn_60", "hs_data_30", "hs_", "nothing_at_all"};
  int false_hits = 0;
  for (unsigned i = 0; i < sizeof missing / sizeof *missing; i++)
    false_hits += dlsym(h, missing[i]) != 0;
  printf("dlsym: %d found, %d right, %d false hits\n", found, right, false_hits);
  return found == 70 && right == 70 && false_hits == 0 ? 0 : 1;
}
