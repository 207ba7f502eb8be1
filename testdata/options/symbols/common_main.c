/* x is a common symbol (-fcommon); libdef.a defines it for real. */
#include <stdio.h>

int x;

int main(void) {
    printf("x=%d\n", x);
    return 0;
}
