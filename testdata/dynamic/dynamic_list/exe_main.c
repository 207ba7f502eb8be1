/* Linked with --dynamic-list=exe.list: only the listed symbols are exported. */
#include <dlfcn.h>
#include <stdio.h>

int exe_listed(void) { return 1; }
int exe_unlisted(void) { return 2; }
int exe_data_a = 3;
int exe_data_b = 4;
int exe_other_data = 5;

int main(void) {
  const char *names[] = {"exe_listed", "exe_unlisted", "exe_data_a", "exe_data_b",
                         "exe_other_data", "main"};
  for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
    printf("%-15s %s\n", names[i], dlsym(RTLD_DEFAULT, names[i]) ? "exported" : "hidden");
  return 0;
}
