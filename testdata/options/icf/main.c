#include <stdio.h>

int leaf_a(int), leaf_b(int), leaf_other(int), call_a(int), call_b(int), call_other(int);
int ping_a(int), ping_b(int), addr_a(int), addr_b(int), use_hid_a(int), use_hid_b(int);
int api_a(int), api_b(int);
extern const int table_a[4], table_b[4], table_c[4];

int main(void) {
  int (*volatile fa)(int) = addr_a;
  int (*volatile fb)(int) = addr_b;
  printf("%d %d %d %d %d %d\n", leaf_a(1), leaf_b(2), leaf_other(3), call_a(4), call_b(5),
         call_other(6));
  printf("%d %d %d %d %d %d\n", ping_a(5), ping_b(6), use_hid_a(7), use_hid_b(8), api_a(1),
         api_b(2));
  printf("%d %d %d\n", fa(1), fb(2), table_a[1] + table_b[2] + table_c[3]);
  printf("same function address: %d\n", fa == fb);
  const int *volatile ta = table_a;
  const int *volatile tb = table_b;
  const int *volatile tc = table_c;
  printf("same data address: %d %d\n", ta == tb, tb == tc);
  return 0;
}
