// Compiled natively, archived with the bitcode members; needed only through chain.c.
int native_member_fn(int x) { return x * 10; }
