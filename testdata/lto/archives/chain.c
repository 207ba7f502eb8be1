int native_member_fn(int x);  // natmem.c (a native member of the same archive)
int chain_next(int x) { return native_member_fn(x) + 1; }
