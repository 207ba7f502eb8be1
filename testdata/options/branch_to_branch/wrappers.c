// Tail calls compiled to a lone `jmp`: what --branch-to-branch short-circuits.
int impl(int x);
__attribute__((noinline)) int w2(int x) { return impl(x); }
__attribute__((noinline)) int impl(int x) { return x + 100; }
