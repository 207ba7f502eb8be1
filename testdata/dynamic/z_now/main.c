#include <stdio.h>
int lib_fn(int);
/* Which output sections PT_GNU_RELRO covers is compared with lld's: a section whose name only
   ends in ".rel.ro" is not one of lld's RELRO names; .data.rel.ro.* input sections are. */
int custom __attribute__((section(".mine.rel.ro"))) = 20;
int *const pointer __attribute__((section(".data.rel.ro.local.ptr"))) = &custom;
int main(void) {
  printf("lib_fn(%d)=%d\n", *pointer + 1, lib_fn(*pointer + 1));
  return 0;
}
