#include <setjmp.h>
#include <stdio.h>

jmp_buf env;

void deep(int depth, int code) {
    char frame[64];
    frame[0] = (char)depth;
    if (depth > 0) {
        deep(depth - 1, code);
        return;
    }
    printf("jumping from depth %d with %d\n", frame[0], code);
    longjmp(env, code);
}
