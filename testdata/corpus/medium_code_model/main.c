#include <stdio.h>

extern int small_data[4];
extern int small_bss[4];
extern const int small_ro[4];
extern int big_data[20000];
extern int big_bss[20000];
extern const int big_ro[20000];
extern int *pointers_to_large[3];

int main(void) {
    big_bss[7] = 17;
    small_bss[1] = 2;
    long sum = 0;
    for (int i = 0; i < 20000; i++)
        sum += big_data[i] + big_ro[i] + big_bss[i];
    printf("large: data %d %d %d ro %d %d %d bss %d sum %ld\n", big_data[0], big_data[4],
           big_data[19999], big_ro[0], big_ro[2], big_ro[19999], big_bss[7], sum);
    printf("small: data %d ro %d bss %d\n", small_data[3], small_ro[2], small_bss[1]);
    printf("pointers: %d %d %d\n", *pointers_to_large[0], *pointers_to_large[1],
           *pointers_to_large[2]);
    return sum == 11 + 15 + 19 + 21 + 23 + 29 + 17 ? 0 : 1;
}
