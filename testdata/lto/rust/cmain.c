#include <stdint.h>
#include <stdio.h>

int64_t rust_sum(const int *p, size_t n);
int64_t rust_describe(int64_t n);
size_t rust_count_vowels(const char *s);

int64_t c_scale(int64_t x) { return x * 10; }

int main(void) {
  int a[] = {1, 2, 3, 4, 5, 600};
  printf("rust_sum=%lld\n", (long long)rust_sum(a, 6));
  printf("rust_describe=%lld\n", (long long)rust_describe(12));
  printf("vowels=%zu\n", rust_count_vowels("Cross-language link time optimization"));
  return 0;
}
