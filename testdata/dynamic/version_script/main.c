/* Calls foo@V1 and bar@V2 directly, then checks the library's versions with dlvsym and that
   `local: *` hid baz. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

int foo(void);
int bar(void);

static const char *yn(void *p) { return p ? "found" : "not found"; }

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  printf("foo()=%d bar()=%d\n", foo(), bar());
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  printf("dlvsym(foo, V1): %s\n", yn(dlvsym(h, "foo", "V1")));
  printf("dlvsym(bar, V2): %s\n", yn(dlvsym(h, "bar", "V2")));
  printf("dlvsym(bar, V1): %s\n", yn(dlvsym(h, "bar", "V1")));
  printf("dlvsym(foo, V2): %s\n", yn(dlvsym(h, "foo", "V2")));
  printf("dlsym(baz): %s\n", yn(dlsym(h, "baz")));
  printf("dlsym(baz_data): %s\n", yn(dlsym(h, "baz_data")));
  return 0;
}
