int chain_next(int x);  // chain.c (bitcode member)
int lib_entry(int x) { return chain_next(x) * 2; }
