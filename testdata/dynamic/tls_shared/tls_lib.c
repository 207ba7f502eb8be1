#include "tls.h"

__thread int lib_tls_int = 5;
__thread char lib_tls_buf[256];
__attribute__((aligned(64))) __thread long lib_tls_arr[4] = {10, 20, 30, 40};
static __thread int lib_tls_private = 100;

int *lib_tls_int_addr(void) { return &lib_tls_int; }
int lib_tls_private_next(void) { return ++lib_tls_private; }
long lib_tls_sum(void) {
  return lib_tls_int + lib_tls_arr[0] + lib_tls_arr[1] + lib_tls_arr[2] + lib_tls_arr[3];
}
