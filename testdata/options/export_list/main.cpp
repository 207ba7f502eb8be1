// The executable of the `exe` variant (with syms.cpp linked in).
extern "C" void report();

int main() {
  report();
  return 0;
}
