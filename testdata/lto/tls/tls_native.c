// Native code: reads the bitcode's thread-locals and defines one the bitcode uses.
#include <string.h>

extern __thread int tls_counter;
extern __thread char tls_name[32];
extern _Thread_local long tls_big[64];

__thread int native_tls = 42;
__thread int native_tls_zero;

int native_read_counter(void) { return tls_counter; }

void native_set_name(const char *s) {
  strncpy(tls_name, s, sizeof tls_name - 1);
  native_tls_zero += 1;
}

long native_big_sum(void) {
  long s = 0;
  for (int i = 0; i < 64; i++) s += tls_big[i];
  return s;
}
