#include <stdio.h>

int internal_fn(void) { return 2; }
int internal_data = 20;
int public_fn(void);

int main(void) {
  printf("public_fn()=%d internal_fn()=%d internal_data=%d\n", public_fn(), internal_fn(),
         internal_data);
  return 0;
}
