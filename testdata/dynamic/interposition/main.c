/* The program's hook() and shared_data interpose the library's: the library's own calls and
   reads reach the program's definitions, unless the library was linked -Bsymbolic (functions and
   data bind locally) or -Bsymbolic-functions (functions only). */
#include <stdio.h>

int hook(void) { return 2; }
int shared_data = 200;
int lib_calls_hook(void);
int lib_reads_data(void);
int (*lib_hook_address(void))(void);

int main(void) {
  printf("hook()=%d\n", hook());
  printf("lib_calls_hook()=%d\n", lib_calls_hook());
  printf("lib_reads_data()=%d\n", lib_reads_data());
  printf("the library's &hook is the program's: %s\n", lib_hook_address() == hook ? "yes" : "no");
  return 0;
}
