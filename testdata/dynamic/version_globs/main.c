/* dlsym on every name the library defines: only those matching the version script's globs
   (`api_*`, `lib_[ab]?`) are exported. */
#include <dlfcn.h>
#include <stdio.h>

int api_open(void);
int lib_b2(void);

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  printf("api_open()=%d lib_b2()=%d\n", api_open(), lib_b2());
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h)
    return 1;
  const char *names[] = {"api_open", "api_close", "api_read", "api_data", "lib_a1",
                         "lib_b2",   "lib_ab",    "lib_c3",   "lib_a12",  "internal_x"};
  for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
    printf("%-10s %s\n", names[i], dlsym(h, names[i]) ? "exported" : "hidden");
  return 0;
}
