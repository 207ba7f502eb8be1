#include <stdio.h>
int util_gcd(int a, int b) {
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}
int util_lcm(int a, int b) { return a / util_gcd(a, b) * b; }
__attribute__((constructor)) static void util_math_loaded(void) { printf("[util_math.o loaded]\n"); }
