/* RELRO and read-only data: writing to const data, to a const table of pointers (.data.rel.ro,
   inside PT_GNU_RELRO) and to code must fault, while ordinary data stays writable. Faults are
   caught with sigsetjmp/siglongjmp from a SIGSEGV handler. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

const int ro_value = 7;
static int one(void) { return 1; }
static int two(void) { return 2; }
int (*const ro_pointers[])(void) = {one, two}; /* needs relocation: .data.rel.ro in PIE */
const char *const ro_strings[] = {"alpha", "beta"};
int rw_value = 3;
int (*rw_pointers[])(void) = {two, one};

static sigjmp_buf env;
static void on_segv(int sig) {
    (void)sig;
    siglongjmp(env, 1);
}

static const char *try_write(volatile void *p, int size) {
    if (sigsetjmp(env, 1) == 0) {
        if (size == 8)
            *(volatile long *)p = 0;
        else
            *(volatile int *)p = 0;
        return "writable";
    }
    return "read-only";
}

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_segv;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    printf("ro_value: %s\n", try_write((void *)&ro_value, 4));
    printf("ro_strings: %s\n", try_write((void *)&ro_strings[0], 8));
    printf("code: %s\n", try_write((void *)&one, 4));
    printf("rw_value: %s\n", try_write(&rw_value, 4));
    printf("rw_pointers: %s\n", try_write(&rw_pointers[1], 8));
    rw_pointers[1] = one;
    printf("ro_pointers: %s\n", try_write((void *)&ro_pointers[0], 8));
    printf("calls: %d %d %d %s\n", ro_pointers[0](), ro_pointers[1](), rw_pointers[1](),
           ro_strings[1]);
    return ro_pointers[0]() == 1 && ro_value == 7 ? 0 : 1;
}
