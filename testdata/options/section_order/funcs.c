/* Many functions and variables, each in its own section (-ffunction-sections
 * -fdata-sections), for the shuffles to permute; two are never used (dead under --gc-sections). */
int f1(int x) { return x * 1 + 1; }
int d1 = 1;
int f2(int x) { return x * 2 + 1; }
int d2 = 2;
int f3(int x) { return x * 3 + 1; }
int d3 = 3;
int f4(int x) { return x * 4 + 1; }
int d4 = 4;
int f5(int x) { return x * 5 + 1; }
int d5 = 5;
int f6(int x) { return x * 6 + 1; }
int d6 = 6;
int f7(int x) { return x * 7 + 1; }
int d7 = 7;
int f8(int x) { return x * 8 + 1; }
int d8 = 8;
int f9(int x) { return x * 9 + 1; }
int d9 = 9;
int f10(int x) { return x * 10 + 1; }
int d10 = 10;
int f11(int x) { return x * 11 + 1; }
int d11 = 11;
int f12(int x) { return x * 12 + 1; }
int d12 = 12;
int f13(int x) { return x * 13 + 1; }
int d13 = 13;
int f14(int x) { return x * 14 + 1; }
int d14 = 14;
int f15(int x) { return x * 15 + 1; }
int d15 = 15;
int f16(int x) { return x * 16 + 1; }
int d16 = 16;
int f17(int x) { return x * 17 + 1; }
int d17 = 17;
int f18(int x) { return x * 18 + 1; }
int d18 = 18;
int f19(int x) { return x * 19 + 1; }
int d19 = 19;
int f20(int x) { return x * 20 + 1; }
int d20 = 20;
int f21(int x) { return x * 21 + 1; }
int d21 = 21;
int f22(int x) { return x * 22 + 1; }
int d22 = 22;
int f23(int x) { return x * 23 + 1; }
int d23 = 23;
int f24(int x) { return x * 24 + 1; }
int d24 = 24;
int unused_a(int x) { return x - 1; }
int unused_b(int x) { return x - 2; }
const char *greeting = "section order";
