/* The program of case 1: main.o is linked directly, the others through a `-r` object. */
#include <stdio.h>

int counter;                 /* -fcommon: a common symbol, also in counter.c */
extern int table_sum(void);
extern const char *greeting(int);
extern int apply(int (*)(int), int);
extern int twice(int);
extern int tls_bump(int);
extern int tls_ie_read(void);
extern int ctor_order[4];
extern int ctor_count;
extern void count_more(int);

static int square(int x) { return x * x; }

int main(void) {
  printf("%s %s\n", greeting(0), greeting(1));
  printf("table_sum=%d\n", table_sum());
  printf("apply square=%d twice=%d\n", apply(square, 7), apply(twice, 7));
  int t1 = tls_bump(2);
  int t2 = tls_bump(3);
  printf("tls=%d %d ie=%d\n", t1, t2, tls_ie_read());
  count_more(5);
  counter += 1;
  printf("counter=%d\n", counter);
  printf("ctors=%d:", ctor_count);
  for (int i = 0; i < ctor_count && i < 4; i++)
    printf(" %d", ctor_order[i]);
  printf("\n");
  return 0;
}
