/* A dlopen'ed plugin with TLS of its own (dynamic TLS, allocated on first use in each thread)
   that also reads the library's TLS. */
#include "tls.h"

__thread int plugin_tls = 42;
static __thread int plugin_private[3] = {1, 2, 3};

int *plugin_tls_addr(void) { return &plugin_tls; }
int plugin_bump(int by) {
  plugin_private[1] += by;
  plugin_tls += by;
  return plugin_tls * 1000 + plugin_private[1];
}
int plugin_read_lib_tls(void) { return lib_tls_int; }
