/* Calls every function and reads every variable of funcs.c, so any order links and runs. */
#include <stdio.h>
int f00(int); extern int d00;
int f01(int); extern int d01;
int f02(int); extern int d02;
int f03(int); extern int d03;
int f04(int); extern int d04;
int f05(int); extern int d05;
int f06(int); extern int d06;
int f07(int); extern int d07;
int f08(int); extern int d08;
int f09(int); extern int d09;
int f10(int); extern int d10;
int f11(int); extern int d11;
int f12(int); extern int d12;
int f13(int); extern int d13;
int f14(int); extern int d14;
int f15(int); extern int d15;
int f16(int); extern int d16;
int f17(int); extern int d17;
int f18(int); extern int d18;
int f19(int); extern int d19;
extern int (*keep_helper)(int);
int main(void) {
  long sum = keep_helper(1);
  sum += f00(d00);
  sum += f01(d01);
  sum += f02(d02);
  sum += f03(d03);
  sum += f04(d04);
  sum += f05(d05);
  sum += f06(d06);
  sum += f07(d07);
  sum += f08(d08);
  sum += f09(d09);
  sum += f10(d10);
  sum += f11(d11);
  sum += f12(d12);
  sum += f13(d13);
  sum += f14(d14);
  sum += f15(d15);
  sum += f16(d16);
  sum += f17(d17);
  sum += f18(d18);
  sum += f19(d19);
  printf("ordering %ld\n", sum);
  return 0;
}
