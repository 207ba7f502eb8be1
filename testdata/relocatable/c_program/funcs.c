/* Function pointers across files and a constructor with a priority in .init_array. */
int ctor_order[4];
int ctor_count;
static int helper(int x) { return x + 100; }

int apply(int (*f)(int), int x) { return f(x) + helper(0) - 100; }
int twice(int x) { return 2 * x; }

__attribute__((constructor(201))) static void late(void) { ctor_order[ctor_count++] = 201; }
__attribute__((constructor(101))) static void early(void) { ctor_order[ctor_count++] = 101; }
__attribute__((constructor)) static void plain(void) { ctor_order[ctor_count++] = 65535; }
