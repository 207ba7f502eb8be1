#include <stdio.h>

__attribute__((constructor)) static void ctor_helper(void) { printf("ctor helper\n"); }
void helper(void) { printf("helper\n"); }
