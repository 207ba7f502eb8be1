/* C constructors and destructors with priorities. */
#include <stdio.h>
#include <stdlib.h>

static void log_line(const char *s) { printf("%s\n", s); }

__attribute__((constructor(101))) static void c101(void) { log_line("ctor 101 (prio.c)"); }
__attribute__((constructor(300))) static void c300(void) { log_line("ctor 300 (prio.c)"); }
__attribute__((constructor(200))) static void c200(void) { log_line("ctor 200 (prio.c)"); }
__attribute__((constructor)) static void cdefault(void) { log_line("ctor default (prio.c)"); }

__attribute__((destructor(101))) static void d101(void) { log_line("dtor 101 (prio.c)"); }
__attribute__((destructor(200))) static void d200(void) { log_line("dtor 200 (prio.c)"); }
__attribute__((destructor)) static void ddefault(void) { log_line("dtor default (prio.c)"); }

static void at_exit_c(void) { log_line("atexit handler (prio.c)"); }
__attribute__((constructor(150))) static void register_atexit(void) {
    log_line("ctor 150 (prio.c) registers atexit");
    atexit(at_exit_c);
}
