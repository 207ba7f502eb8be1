// Native: strong definition that overrides a weak bitcode one; a data pointer to a bitcode
// function; a callback handed to bitcode.
int bc_square(int x);

int strong_over_bc_weak(void) { return 20; }

int (*nat_fp)(int) = bc_square;

int nat_twice(int x) {
  extern int nat_counter;
  nat_counter++;
  return 2 * x;
}
