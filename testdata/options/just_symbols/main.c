/* Uses base.c's symbols by address only: with --just-symbols they are absolute, and their
 * addresses are those of the file they came from. */
#include <stdio.h>

extern int shared_counter;
extern int weak_value;
int base_func(int);

int main(void) {
    printf("base_func=%#lx shared_counter=%#lx weak_value=%#lx\n", (unsigned long)&base_func,
           (unsigned long)&shared_counter, (unsigned long)&weak_value);
    return 0;
}
