/* A program with data and functions, and constructors in two files (the order of .init_array
   pieces shows the order of input sections). */
#include <stdio.h>

int exported_data = 5;
int other_data[4] = {1, 2, 3, 4};
void exported_function(void) {}

extern void helper(void);
__attribute__((constructor)) static void ctor_main(void) { printf("ctor main\n"); }

int main(void) {
    helper();
    printf("main %d %d\n", exported_data, other_data[3]);
    return 0;
}
