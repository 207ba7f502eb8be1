#include <stdio.h>
const char *lib_id(void);
const char *plain_id(void);
int main(void) {
  printf("%s %s\n", lib_id(), plain_id());
  return 0;
}
