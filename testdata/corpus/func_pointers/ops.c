/* Functions whose addresses are taken in several TUs. */
#include <stdio.h>
#include <string.h>

int op_add(int a, int b) { return a + b; }
int op_sub(int a, int b) { return a - b; }
int op_mul(int a, int b) { return a * b; }
static int op_private(int a, int b) { return a % b; }

typedef int (*op_fn)(int, int);
/* A table of pointers in writable data and one in read-only data (.data.rel.ro in PIE). */
op_fn ops_table[] = {op_add, op_sub, op_mul, op_private};
op_fn const ops_const_table[] = {op_add, op_sub, op_mul, op_private};

op_fn ops_add_address(void) { return op_add; }
op_fn ops_private_address(void) { return op_private; }
void *ops_puts_address(void) { return (void *)puts; }
void *ops_memcpy_address(void) { return (void *)memcpy; } /* glibc IFUNC */
