#include <stdio.h>

int answer(void);

int main(void) {
  printf("answer=%d\n", answer());
  return 0;
}
