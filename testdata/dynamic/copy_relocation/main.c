/* Built -fno-pie and linked -no-pie: the library's data is copied into the program (R_X86_64_COPY)
   and both sides must then use the one copy. */
#include <stdio.h>

extern int lib_array[8];
extern const char lib_message[];
extern struct point {
  int x, y;
} lib_point;
int lib_sum(void);
void lib_set(int i, int v);
int *lib_array_address(void);
const char *lib_message_address(void);
int lib_point_sum(void);

int main(void) {
  int fails = 0;
  printf("program reads: %d %d %d, message '%s', point %d,%d\n", lib_array[0], lib_array[3],
         lib_array[7], lib_message, lib_point.x, lib_point.y);
  printf("lib_sum()=%d\n", lib_sum());
  lib_array[2] = 30;
  lib_point.y = 40;
  printf("after the program's writes: lib_sum()=%d lib_point_sum()=%d\n", lib_sum(),
         lib_point_sum());
  lib_set(5, 60);
  printf("after lib_set(5, 60): program reads lib_array[5]=%d\n", lib_array[5]);
  printf("same array address: %s, same message address: %s\n",
         lib_array_address() == lib_array ? "yes" : "no",
         lib_message_address() == lib_message ? "yes" : "no");
  fails += lib_sum() != 1 + 2 + 30 + 4 + 5 + 60 + 7 + 8;
  fails += lib_array_address() != lib_array || lib_message_address() != lib_message;
  fails += lib_point_sum() != 43;
  return fails;
}
