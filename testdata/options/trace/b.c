/* liba.a(b.o): never extracted, so never traced. */
int b_fn(void) { return 6; }
