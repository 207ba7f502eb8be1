/* gdb_index: a shared library with debug information. */
struct libstate {
  int calls;
};

static struct libstate state;

int lib_add(int a, int b) {
  state.calls++;
  return a + b + state.calls;
}
