/* Functions of different sizes and variables, each in a section of its own
 * (-ffunction-sections -fdata-sections), for the ordering options to arrange. */
volatile int sink;
static int helper(int x) { sink = x; return x + 1; }
int (*keep_helper)(int) = helper;
int f00(int x) { sink = x + 0; return x * 1 + 1; }
int d00 = 1;
int f01(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; sink = x + 6; sink = x + 7; return x * 2 + 1; }
int d01 = 2;
int f02(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; return x * 3 + 1; }
int d02 = 3;
int f03(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; sink = x + 6; sink = x + 7; sink = x + 8; sink = x + 9; sink = x + 10; return x * 4 + 1; }
int d03 = 4;
int f04(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; sink = x + 6; return x * 5 + 1; }
int d04 = 5;
int f05(int x) { sink = x + 0; sink = x + 1; sink = x + 2; return x * 6 + 1; }
int d05 = 6;
int f06(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; sink = x + 6; sink = x + 7; sink = x + 8; sink = x + 9; return x * 7 + 1; }
int d06 = 7;
int f07(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; return x * 8 + 1; }
int d07 = 8;
int f08(int x) { sink = x + 0; sink = x + 1; return x * 9 + 1; }
int d08 = 9;
int f09(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; sink = x + 6; sink = x + 7; sink = x + 8; return x * 10 + 1; }
int d09 = 10;
int f10(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; return x * 11 + 1; }
int d10 = 11;
int f11(int x) { sink = x + 0; return x * 12 + 1; }
int d11 = 12;
int f12(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; sink = x + 6; sink = x + 7; return x * 13 + 1; }
int d12 = 13;
int f13(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; return x * 14 + 1; }
int d13 = 14;
int f14(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; sink = x + 6; sink = x + 7; sink = x + 8; sink = x + 9; sink = x + 10; return x * 15 + 1; }
int d14 = 15;
int f15(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; sink = x + 6; return x * 16 + 1; }
int d15 = 16;
int f16(int x) { sink = x + 0; sink = x + 1; sink = x + 2; return x * 17 + 1; }
int d16 = 17;
int f17(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; sink = x + 6; sink = x + 7; sink = x + 8; sink = x + 9; return x * 18 + 1; }
int d17 = 18;
int f18(int x) { sink = x + 0; sink = x + 1; sink = x + 2; sink = x + 3; sink = x + 4; sink = x + 5; return x * 19 + 1; }
int d18 = 19;
int f19(int x) { sink = x + 0; sink = x + 1; return x * 20 + 1; }
int d19 = 20;
int unused_fn(int x) { sink = x; return x; }
int unused_var = 99;
