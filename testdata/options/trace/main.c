#include <stdio.h>

int a_fn(void);
int t_fn(void);

int main(void) {
  printf("a_fn=%d t_fn=%d\n", a_fn(), t_fn());
  return 0;
}
