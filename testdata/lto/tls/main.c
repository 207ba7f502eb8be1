// Bitcode main: threads each change their own copies of thread-locals defined in bitcode and in
// native code; results are printed after joining, in thread order.
#include <pthread.h>
#include <stdio.h>

extern __thread int tls_counter;
extern __thread char tls_name[32];
extern __thread int native_tls;
extern __thread int native_tls_zero;
int *tls_counter_addr(void);
void tls_bump(int n);
int tls_hidden_value(void);
int tls_aligned_ok(void);
int native_read_counter(void);
void native_set_name(const char *s);
long native_big_sum(void);

#define N 4
static char results[N + 1][160];

static void record(int slot) {
  snprintf(results[slot], sizeof results[slot],
           "slot %d: counter=%d native_read=%d same_addr=%d hidden=%d name=%s native_tls=%d "
           "zero=%d big_sum=%ld aligned=%d",
           slot, tls_counter, native_read_counter(), tls_counter_addr() == &tls_counter,
           tls_hidden_value(), tls_name, native_tls, native_tls_zero, native_big_sum(),
           tls_aligned_ok());
}

static void *worker(void *arg) {
  int id = (int)(long)arg;
  char name[16];
  snprintf(name, sizeof name, "thread-%d", id);
  tls_bump(id * 10);
  native_set_name(name);
  native_tls += id;
  record(id);
  return NULL;
}

int main(void) {
  pthread_t t[N];
  for (long i = 1; i <= N; i++) pthread_create(&t[i - 1], NULL, worker, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
  tls_bump(1);
  record(0);
  for (int i = 0; i <= N; i++) puts(results[i]);
  return 0;
}
