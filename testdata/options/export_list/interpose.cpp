// The program linked against libsyms.so in the shared variants: it defines every symbol of
// syms.cpp again; report() shows which of its references the library left preemptible.
extern "C" void report();

namespace ns {
int f1() { return 101; }
int f2(int x) { return x + 102; }
int g() { return 103; }
} // namespace ns

extern "C" {
int foo() { return 110; }
int bar1() { return 111; }
int bar2 = 112;
int baz() { return 113; }
}

int main() {
  report();
  return 0;
}
