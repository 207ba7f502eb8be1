/* sub/libx.so, linked without -soname. */
int x_value(void) { return 7; }
