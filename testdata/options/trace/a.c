/* liba.a(a.o): extracted for a_fn. */
int a_fn(void) { return 5; }
