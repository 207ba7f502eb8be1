/* Built -fPIC into the program: general-dynamic access to the library's TLS (the linker may
   relax it to initial-exec in an executable). */
#include "tls.h"

extern __thread int lib_tls_int __attribute__((tls_model("global-dynamic")));

int *gd_addr(void) { return &lib_tls_int; }
void gd_add(int v) { lib_tls_int += v; }
