/* The Rust library's C API, used through direct calls (main_direct.c) or dlsym (main_dlopen.c);
   both run the same code and print the same lines. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct rs_api {
  void (*init)(void);
  int64_t (*add)(int64_t, int64_t);
  size_t (*reg)(const char *, int64_t);
  int64_t (*sum)(void);
  char *(*describe)(void);
  void (*free_)(char *);
  int64_t (*checked_div)(int64_t, int64_t, int *);
  uint64_t (*parallel_sum)(uint64_t);
  uint32_t (*thread_calls)(void);
  const int *version;
};

static struct rs_api *api_for_thread;

static void *thread_calls(void *arg) {
  (void)arg;
  uint32_t last = 0;
  for (int i = 0; i < 3; i++)
    last = api_for_thread->thread_calls();
  return (void *)(uintptr_t)last;
}

static int run_all(struct rs_api *a) {
  a->init();
  printf("version=%d add(40, 2)=%lld\n", *a->version, (long long)a->add(40, 2));
  a->reg("beta", 20);
  a->reg("alpha", 10);
  size_t n = a->reg("gamma", 12);
  char *d = a->describe();
  printf("registry has %zu entries: %s; sum=%lld\n", n, d, (long long)a->sum());
  a->free_(d);
  int ok = 0;
  long long q = a->checked_div(84, 2, &ok);
  printf("checked_div(84, 2)=%lld ok=%d\n", q, ok);
  q = a->checked_div(1, 0, &ok);
  printf("checked_div(1, 0)=%lld ok=%d (panic caught in Rust)\n", q, ok);
  printf("parallel_sum(1000000)=%llu\n", (unsigned long long)a->parallel_sum(1000000));
  a->thread_calls();
  a->thread_calls();
  api_for_thread = a;
  pthread_t t;
  void *r;
  pthread_create(&t, NULL, thread_calls, NULL);
  pthread_join(t, &r);
  printf("thread-local calls: main=%u other thread=%u\n", a->thread_calls(),
         (unsigned)(uintptr_t)r);
  return 0;
}
