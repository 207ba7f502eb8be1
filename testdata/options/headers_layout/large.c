/* Large (SHF_X86_64_LARGE) and small data of every kind, compiled -mcmodel=medium with a small
   threshold: .ldata, .lbss, .lrodata next to .data, .bss, .rodata. */
#include <stdio.h>

int small_data[4] = {1, 2, 3, 4};
int small_bss[4];
const int small_ro[4] = {5, 6, 7, 8};
int big_data[2000] = {[0] = 11, [1999] = 19};
int big_bss[2000];
const int big_ro[2000] = {[0] = 21, [1999] = 29};

int main(void) {
    big_bss[3] = 13;
    small_bss[1] = 2;
    printf("%d %d %d %d %d %d %d %d %d\n", big_data[0], big_data[1999], big_ro[0], big_ro[1999],
           big_bss[3], small_data[3], small_ro[2], small_bss[1], big_bss[4]);
    return 0;
}
