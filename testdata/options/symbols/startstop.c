/* Two variables in section `myset`, counted through __start_myset/__stop_myset. */
#include <stdio.h>

__attribute__((section("myset"), used)) static int a = 1;
__attribute__((section("myset"), used)) static int b = 2;
extern int __start_myset[], __stop_myset[];

int main(void) {
    printf("myset=%d\n", (int)(__stop_myset - __start_myset));
    return 0;
}
