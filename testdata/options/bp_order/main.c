#include <stdio.h>

int arith0(int), arith1(int), arith2(int), arith3(int), arith4(int), arith5(int), arith6(int),
    arith7(int);
int loop0(int), loop1(int), loop2(int), loop3(int), loop4(int), loop5(int), loop6(int), loop7(int);
int look0(int), look1(int), look2(int), look3(int), look4(int), look5(int), look6(int), look7(int);
int same_a(int), same_b(int), same_c(int);
extern const char text0[], text1[], text2[], text3[], text4[], text5[], text6[], text7[];

/* The "startup": what the temporal profile records first, in this order. */
static int startup(int x) {
  x += look5(x) + arith2(x) + loop7(x & 15) + same_b(x);
  x += look1(x) + arith6(x);
  return x;
}

int main(int argc, char **argv) {
  (void)argv;
  int x = startup(argc);
  x += arith0(x) + arith1(x) + arith3(x) + arith4(x) + arith5(x) + arith7(x);
  x += loop0(5) + loop1(6) + loop2(7) + loop3(8) + loop4(9) + loop5(10) + loop6(11);
  x += look0(x) + look2(x) + look3(x) + look4(x) + look6(x) + look7(x);
  x += same_a(x) + same_c(x);
  x += text0[0] + text1[1] + text2[2] + text3[3] + text4[4] + text5[5] + text6[6] + text7[7];
  printf("bp_order %d\n", x);
  return 0;
}
