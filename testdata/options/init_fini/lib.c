/* A shared library linked with --init=lib_init --fini=lib_fini (or -init/-fini). */
#include <stdio.h>

void lib_init(void) { puts("lib_init"); }
void lib_fini(void) { puts("lib_fini"); }
void lib_hello(void) { puts("lib_hello"); }
