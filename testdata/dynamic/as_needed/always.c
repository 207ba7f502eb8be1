int always_fn(void) { return 2; }
