/* --emit-relocs: local symbols and statics (section-symbol relocations), string literals in
 * merged sections, relaxable GOT references to data of another file, TLS (local and
 * extern), a table of function pointers (absolute relocations), and dead_fn in other.c that
 * --gc-sections collects with its relocations. */
#include <stdio.h>

extern int shared_counter;
extern __thread int tls_other;
int other_fn(int);

static int calls;
static __thread int tls_local = 5;
static const char *names[] = {"alpha", "beta"};

static int twice(int x) {
    calls++;
    return 2 * x + tls_local;
}

static int (*const table[])(int) = {twice, other_fn};

int main(int argc, char **argv) {
    (void)argv;
    int sum = 0;
    for (int i = 0; i < 2; i++)
        sum += table[i](i + argc);
    shared_counter += sum;
    tls_other += calls;
    printf("%s %s %d %d %d\n", names[0], names[argc], sum, shared_counter, tls_other);
    return 0;
}
