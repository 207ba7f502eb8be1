int unused_fn(void) { return 1; }
