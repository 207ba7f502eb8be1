/* Version 1 of libsv.so.1: foo@@V1 only. */
int foo(void) { return 1; }
