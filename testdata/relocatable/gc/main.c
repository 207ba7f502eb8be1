/* --gc-sections -r with -e main and -u kept_by_u: what stays is what main reaches, what -u
   names and what that reaches. Compiled with -ffunction-sections -fdata-sections. */
#include <stdio.h>
int used_data = 7;
int unused_data = 8;
const char used_str[] = "used string";
__attribute__((noinline)) int leaf(int x) { return x + used_data; }
__attribute__((noinline)) int reached(int x) { return leaf(x) * 2; }
int unreached(int x) { return x + unused_data; }
int kept_by_u(int x) { return leaf(x) - 1; }
static int static_unreached(int x) { return x * 3; }
int (*keep_static)(int) = static_unreached;
__attribute__((constructor)) static void ctor(void) { used_data += 1; }
int main(void) {
  printf("%s %d\n", used_str, reached(1));
  return 0;
}
