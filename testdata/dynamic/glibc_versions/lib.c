/* A library using versioned glibc functions. */
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

long lib_parse_and_sort(const char *s, int *out, int n) {
  char *end;
  for (int i = 0; i < n; i++) {
    out[i] = (int)strtol(s, &end, 10);
    s = end;
  }
  qsort(out, n, sizeof *out, cmp);
  char buf[16];
  memcpy(buf, "0123456789abcde", 16);
  return (long)strlen(buf);
}
