#include <stdio.h>
int personality_calls;
int my_personality(int version, int actions) { personality_calls++; return version + actions; }
extern int asm_fn(int);
int main(void) { printf("asm_fn=%d\n", asm_fn(4)); return 0; }
