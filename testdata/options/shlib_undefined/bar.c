/* libbar.so: needs foo, which it does not define. */
int foo(void);
int bar(void) { return foo() + 1; }
