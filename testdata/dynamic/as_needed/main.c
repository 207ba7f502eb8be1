/* Linked with --as-needed against libused (used), libunused (not used), libweakref (only a weak
   reference) and libm (not used), then --no-as-needed against libalways (not used). */
#include <stdio.h>

int used_fn(void);
int weak_only_fn(void) __attribute__((weak));

int main(void) {
  printf("used_fn()=%d\n", used_fn());
  printf("weak_only_fn is %s\n", weak_only_fn ? "loaded" : "not loaded");
  return used_fn() == 40 ? 0 : 1;
}
