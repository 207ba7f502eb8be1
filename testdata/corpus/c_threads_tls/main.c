/* C __thread variables with pthreads: each thread gets a fresh copy of .tdata/.tbss, addresses
   differ per thread, and values do not leak between threads. Also pthread_once, mutexes and a
   barrier-free, deterministic result order (results are printed by main after joining). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

extern __thread int tls_counter;
extern __thread long tls_zero;
extern __thread char tls_name[16];
int *counter_addr(void);
void bump(int n);

static __thread int local_tls = 7;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int once_runs, shared_total;

static void init_once(void) { once_runs++; }

struct result {
    int id, counter, local;
    long zero;
    char name[16];
    int addr_ok;
    void *addr;
};

static void *worker(void *arg) {
    struct result *r = arg;
    pthread_once(&once, init_once);
    bump(r->id + 1);
    local_tls *= r->id + 2;
    snprintf(tls_name, sizeof tls_name, "thread-%d", r->id);
    r->counter = tls_counter;
    r->zero = tls_zero;
    r->local = local_tls;
    r->addr = &tls_counter;
    r->addr_ok = counter_addr() == &tls_counter;
    strcpy(r->name, tls_name);
    pthread_mutex_lock(&lock);
    shared_total += tls_counter;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    enum { N = 6 };
    pthread_t th[N];
    struct result res[N];
    for (int i = 0; i < N; ++i) {
        memset(&res[i], 0, sizeof res[i]);
        res[i].id = i;
        if (pthread_create(&th[i], NULL, worker, &res[i]) != 0)
            return 2;
    }
    for (int i = 0; i < N; ++i)
        pthread_join(th[i], NULL);
    int failures = 0;
    for (int i = 0; i < N; ++i) {
        printf("thread %d: counter=%d zero=%ld local=%d name=%s addr_ok=%d\n", res[i].id,
               res[i].counter, res[i].zero, res[i].local, res[i].name, res[i].addr_ok);
        failures += !res[i].addr_ok;
        failures += res[i].addr == (void *)&tls_counter; /* not main's copy */
    }
    printf("main: counter=%d zero=%ld local=%d name=%s\n", tls_counter, tls_zero, local_tls,
           tls_name);
    printf("once_runs=%d shared_total=%d\n", once_runs, shared_total);
    failures += tls_counter != 1000 || tls_zero != 0 || local_tls != 7 || strcmp(tls_name, "init");
    failures += once_runs != 1 || shared_total != 6 * 1000 + 21;
    return failures;
}
