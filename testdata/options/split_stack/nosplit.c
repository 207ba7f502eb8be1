// Compiled without -fsplit-stack (or with it, for the all_split variant).
int nosplit_fn(int x) { return x + 40; }
