/* Built -fPIC -mtls-dialect=gnu2 into the program: TLS descriptors. */
#include "tls.h"

extern __thread int lib_tls_int __attribute__((tls_model("global-dynamic")));

int *desc_addr(void) { return &lib_tls_int; }
void desc_add(int v) { lib_tls_int += v; }
