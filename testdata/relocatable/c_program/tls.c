/* TLS: compiled with -fPIC, so the general-dynamic model is used for `tls_gd`; `tls_ie` is
   accessed through the initial-exec model. */
#include <stdio.h>
__thread int tls_gd = 10;
__thread int tls_zero;
__attribute__((tls_model("initial-exec"))) __thread int tls_ie = 40;
static __thread int tls_local = 1;

int tls_bump(int by) {
  tls_gd += by;
  tls_zero += 1;
  tls_local *= 2;
  return tls_gd + tls_zero + tls_local;
}

int tls_ie_read(void) { return tls_ie; }
