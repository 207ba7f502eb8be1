/* In liblazy.a, never loaded: its symbols stay lazy, which lld reports as undefined. */
int lazy_fn(void) { return 1; }
