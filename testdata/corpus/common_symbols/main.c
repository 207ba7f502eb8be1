/* Common symbols (-fcommon): tentative definitions of different sizes merge into one object of
   the largest size; a real definition overrides commons; alignment is honoured. */
#include <stdint.h>
#include <stdio.h>

extern int buffer[];
extern int shared_counter;
extern long only_here;
extern char aligned_common[];
int initialized_elsewhere = 77;
int neighbour_before[8];
int neighbour_after[8];

int *buffer_from_small(void);
int *buffer_from_big(void);
void fill_buffer(void);
void small_bump(void);
void big_bump(void);

int main(void) {
    int failures = 0;
    for (int i = 0; i < 8; ++i)
        neighbour_before[i] = neighbour_after[i] = -1;
    fill_buffer();
    small_bump();
    big_bump();
    int sum = 0;
    for (int i = 0; i < 64; ++i)
        sum += buffer[i];
    int intact = 1;
    for (int i = 0; i < 8; ++i)
        intact &= neighbour_before[i] == -1 && neighbour_after[i] == -1;
    printf("same buffer from both TUs: %s\n",
           buffer_from_small() == buffer_from_big() ? "yes" : "no");
    printf("sum=%d last=%d counter=%d only_here=%ld initialized_elsewhere=%d\n", sum, buffer[63],
           shared_counter, only_here, initialized_elsewhere);
    printf("neighbours intact: %s\n", intact ? "yes" : "no");
    printf("aligned_common aligned to 64: %s\n",
           ((uintptr_t)aligned_common & 63) == 0 ? "yes" : "no");
    failures += buffer_from_small() != buffer_from_big() || !intact || sum != 6048;
    failures += shared_counter != 11 || initialized_elsewhere != 77;
    failures += ((uintptr_t)aligned_common & 63) != 0;
    return failures;
}
