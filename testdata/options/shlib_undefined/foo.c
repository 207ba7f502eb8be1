/* libfoo.so: defines foo. */
int foo(void) { return 41; }
