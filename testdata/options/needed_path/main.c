#include <stdio.h>

int x_value(void);

int main(void) {
  printf("x=%d\n", x_value());
  return 0;
}
