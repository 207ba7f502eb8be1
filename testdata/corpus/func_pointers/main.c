/* Function pointers and address equality across TUs: &f taken in two TUs compares equal (also
   for libc functions and for glibc's IFUNC memcpy), tables of pointers in data and read-only
   data, callbacks through pointers, and pointers stored in initialised data in main. */
#include <stdio.h>
#include <string.h>

typedef int (*op_fn)(int, int);
int op_add(int, int), op_sub(int, int), op_mul(int, int);
extern op_fn ops_table[4];
extern op_fn const ops_const_table[4];
op_fn ops_add_address(void);
op_fn ops_private_address(void);
void *ops_puts_address(void);
void *ops_memcpy_address(void);

static op_fn local_table[] = {op_mul, op_add};
static int apply(op_fn f, int a, int b) { return f(a, b); }

int main(void) {
    int failures = 0;
    printf("add address equal across TUs: %d\n", ops_add_address() == op_add);
    printf("table[0] is op_add: %d, const table[2] is op_mul: %d\n", ops_table[0] == op_add,
           ops_const_table[2] == op_mul);
    printf("puts address equal: %d, memcpy address equal: %d\n",
           ops_puts_address() == (void *)puts, ops_memcpy_address() == (void *)memcpy);
    failures += ops_add_address() != op_add || ops_table[0] != op_add;
    failures += ops_puts_address() != (void *)puts || ops_memcpy_address() != (void *)memcpy;
    failures += ops_table[3] != ops_private_address() || ops_const_table[3] != ops_table[3];
    int acc = 0;
    for (int i = 0; i < 4; ++i) {
        int r = apply(ops_table[i], 17, 5) + ops_const_table[i](3, 2);
        printf("op %d: %d\n", i, r);
        acc += r;
    }
    printf("local table: %d %d; acc=%d\n", local_table[0](6, 7), local_table[1](6, 7), acc);
    return failures;
}
