/* Names its libraries in .deplibs (clang's `#pragma comment(lib, ...)` on ELF): libm by name,
 * libdeplib.a by name (found with -L), and libextra.a by its file name. */
#pragma comment(lib, "m")
#pragma comment(lib, "deplib")
#pragma comment(lib, "libextra.a")
#include <stdio.h>

double cos(double);
int helper(void);
int extra(void);

int main(void) {
    printf("%.3f %d %d\n", cos(0.5), helper(), extra());
    return 0;
}
