/* setjmp/longjmp: non-local jumps out of nested calls (across TUs), volatile locals preserved,
   repeated jumps into the same buffer, and sigsetjmp/siglongjmp. The exit code is the number of
   jumps taken, so a mis-linked program also shows in the status. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

extern jmp_buf env;
void deep(int depth, int code); /* jumper.c */

static sigjmp_buf senv;

int main(void) {
    volatile int jumps = 0;
    volatile int accumulated = 0;
    int code = setjmp(env);
    if (code != 0) {
        jumps++;
        accumulated += code;
        printf("returned from longjmp with %d\n", code);
    }
    if (code < 5)
        deep(3, code + 1);
    printf("after %d jumps, accumulated=%d\n", jumps, accumulated);
    if (sigsetjmp(senv, 1) == 0) {
        printf("sigsetjmp first return\n");
        siglongjmp(senv, 9);
    } else {
        printf("siglongjmp returned\n");
        jumps++;
    }
    return jumps; /* 6 */
}
