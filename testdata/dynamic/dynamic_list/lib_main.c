#include <dlfcn.h>
#include <stdio.h>

int listed_hook(void) { return 2; }
int unlisted_hook(void) { return 20; }
int lib_calls_hooks(void);

int main(void) {
  printf("lib_calls_hooks()=%d\n", lib_calls_hooks());
  return 0;
}
