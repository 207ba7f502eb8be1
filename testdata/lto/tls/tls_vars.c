// Bitcode: thread-local variables used by bitcode and by native code.
#include <stdint.h>

__thread int tls_counter = 5;
__thread char tls_name[32] = "initial";
_Thread_local long tls_big[64] = {1, 2, 3};
static __thread int tls_hidden;
__attribute__((aligned(64))) __thread int tls_aligned = 9;

int *tls_counter_addr(void) { return &tls_counter; }

void tls_bump(int n) {
  tls_counter += n;
  tls_hidden += 1;
  tls_big[63] += n;
}

int tls_hidden_value(void) { return tls_hidden; }

int tls_aligned_ok(void) { return ((uintptr_t)&tls_aligned % 64) == 0 && tls_aligned == 9; }
