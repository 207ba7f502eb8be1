int weak_only_fn(void) { return 100; }
