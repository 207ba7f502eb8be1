// Bitcode main: calls native code and bitcode, both ways, through data and function pointers.
#include <stdio.h>

extern int nat_var, nat_counter, bc_var, bc_array[4];
extern const char nat_message[];
extern int (*nat_fp)(int);
int nat_add(int a, int b);
int nat_calls_bc(int x);
void nat_set_bc_var(int v);
int nat_twice(int x);
int weak_in_native(void);
int strong_over_bc_weak(void);
int bc_square(int x);
int bc_apply(int (*fn)(int), int x);

int main(void) {
  printf("nat_add=%d nat_calls_bc=%d\n", nat_add(2, 3), nat_calls_bc(4));
  nat_set_bc_var(11);
  printf("bc_var=%d bc_array[3]=%d nat_calls_bc=%d\n", bc_var, bc_array[3], nat_calls_bc(1));
  nat_var = 1000;
  printf("nat_calls_bc after nat_var=1000: %d\n", nat_calls_bc(2));
  printf("weak_in_native=%d strong_over_bc_weak=%d\n", weak_in_native(), strong_over_bc_weak());
  printf("nat_fp==bc_square: %d, nat_fp(9)=%d\n", nat_fp == bc_square, nat_fp(9));
  printf("bc_apply(nat_twice, 5)=%d nat_counter=%d\n", bc_apply(nat_twice, 5), nat_counter);
  printf("%s\n", nat_message);
  return 0;
}
