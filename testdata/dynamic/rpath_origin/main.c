#include <stdio.h>
const char *where(void);
int main(void) {
  printf("%s\n", where());
  return 0;
}
