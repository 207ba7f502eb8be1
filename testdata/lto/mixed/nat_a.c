// Native: calls into bitcode, reads and writes a bitcode global, defines globals the bitcode uses.
extern int bc_var;
extern int bc_array[4];
int bc_square(int x);
int bc_only_called_from_native(int x);

int nat_var = 100;
int nat_counter;
const char nat_message[] = "hello from native data";

int nat_add(int a, int b) { return a + b; }

int nat_calls_bc(int x) { return bc_square(x) + bc_var + bc_only_called_from_native(x); }

void nat_set_bc_var(int v) {
  bc_var = v;
  bc_array[3] = v * 2;
}

// Weak here, strong in bitcode: the bitcode definition must win.
__attribute__((weak)) int weak_in_native(void) { return 1; }
