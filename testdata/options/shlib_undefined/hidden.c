/* Defines foo in the program, but hidden: a library cannot bind to it. */
__attribute__((visibility("hidden"))) int foo(void) { return 7; }
