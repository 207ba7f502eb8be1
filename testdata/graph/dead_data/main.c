/* Bitcode. Reads bc_live_var through native.o's live_ptr. */
#include <stdio.h>
extern int *live_ptr;
int main(void) {
  printf("live_ptr -> %d\n", *live_ptr);
  return 0;
}
