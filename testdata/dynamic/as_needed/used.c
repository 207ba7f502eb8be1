int used_fn(void) { return 40; }
