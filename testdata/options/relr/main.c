/* Many relative relocations: a table longer than one RELR bitmap (63 words), pointers with
 * gaps, and one pointer at an odd offset (packed), which RELR cannot hold. */
#include <stdio.h>

static int values[100];
int *table[100];
static const char *names[] = {"alpha", "beta", "gamma", 0, 0, 0, 0, 0, "delta"};

struct __attribute__((packed)) odd {
    char c;
    int *p;
};
struct odd odd_one = {'x', &values[7]};

int lib_sum(void);

int main(void) {
    for (int i = 0; i < 100; i++) {
        table[i] = &values[i];
        *table[i] = i;
    }
    static int *const fixed[3] = {&values[1], &values[50], &values[99]};
    int sum = *fixed[0] + *fixed[1] + *fixed[2] + *odd_one.p;
    printf("%s %s %s %s sum=%d lib=%d\n", names[0], names[1], names[2], names[8], sum, lib_sum());
    return 0;
}
