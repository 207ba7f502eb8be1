// Bitcode: definitions used by native code.
extern int nat_var;

int bc_var = 7;
int bc_array[4] = {1, 2, 3, 4};

int bc_square(int x) { return x * x; }

// Referenced only from native code: LTO must keep it (visible to regular objects).
int bc_only_called_from_native(int x) { return x + nat_var; }

// Weak in bitcode, strong in native (nat_b.c): the native one must win.
__attribute__((weak)) int strong_over_bc_weak(void) { return 10; }

// Strong in bitcode, weak in native (nat_a.c).
int weak_in_native(void) { return 2; }

int bc_apply(int (*fn)(int), int x) { return fn(fn(x)); }
