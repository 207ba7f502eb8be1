/* References glibc functions of several symbol versions (libc, libm, libpthread and libdl folded
   into libc), directly and through pointers. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

long lib_parse_and_sort(const char *s, int *out, int n);
int cxx_part(void);

static void *worker(void *arg) { return (char *)arg + 1; }

int main(void) {
  int v[4];
  long len = lib_parse_and_sort("40 10 30 20", v, 4);
  printf("sorted: %d %d %d %d (len %ld)\n", v[0], v[1], v[2], v[3], len);
  char dst[32];
  void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
  cpy(dst, "copied through a pointer", 25);
  printf("%s\n", dst);
  printf("fmod(10, 3)=%.1f pow(2, 10)=%.0f\n", fmod(10, 3), pow(2, 10));
  pthread_t t;
  void *r;
  char c = 'a';
  pthread_create(&t, NULL, worker, &c);
  pthread_join(t, &r);
  printf("thread returned %s\n", r == &c + 1 ? "the right pointer" : "something else");
  struct stat st;
  printf("stat(/): %s\n", stat("/", &st) == 0 && S_ISDIR(st.st_mode) ? "a directory" : "?");
  struct timespec ts;
  printf("clock_gettime: %d\n", clock_gettime(CLOCK_MONOTONIC, &ts));
  printf("cxx_part()=%d\n", cxx_part());
  printf("dlsym(printf) is printf: %s\n",
         dlsym(RTLD_DEFAULT, "printf") == (void *)printf ? "yes" : "no");
  return 0;
}
