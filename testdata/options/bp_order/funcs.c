/* Families of functions and data that share bytes, interleaved so that input order does not
   group them: what balanced partitioning's compression sort groups back together. */
#define ARITH(n, k)                                                                       \
  int arith##n(int x) {                                                                   \
    x = x * k + 1;                                                                        \
    x ^= x >> 3;                                                                          \
    return x + k;                                                                         \
  }
#define LOOP(n, k)                                                                        \
  int loop##n(int x) {                                                                    \
    int s = 0;                                                                            \
    for (int i = 0; i < x; i++)                                                           \
      s += i * k + (s >> 2);                                                              \
    return s;                                                                             \
  }
#define TABLE(n, k)                                                                       \
  const int table##n[8] = {k, k + 1, 2, 3, 4, 5, 6, 7};                                   \
  int look##n(int i) { return table##n[i & 7] + k; }
#define TEXT(n, s) const char text##n[] = "balanced partitioning " s;

ARITH(0, 3) LOOP(0, 5) TABLE(0, 7) TEXT(0, "zero")
ARITH(1, 9) LOOP(1, 11) TABLE(1, 13) TEXT(1, "one one")
ARITH(2, 15) LOOP(2, 17) TABLE(2, 19) TEXT(2, "two two two")
ARITH(3, 21) LOOP(3, 23) TABLE(3, 25) TEXT(3, "three")
ARITH(4, 27) LOOP(4, 29) TABLE(4, 31) TEXT(4, "four four")
ARITH(5, 33) LOOP(5, 35) TABLE(5, 37) TEXT(5, "five five five")
ARITH(6, 39) LOOP(6, 41) TABLE(6, 43) TEXT(6, "six")
ARITH(7, 45) LOOP(7, 47) TABLE(7, 49) TEXT(7, "seven seven")

/* Identical bodies: "duplicate" sections that follow the first of them. */
int same_a(int x) { return x * 1000 + 77; }
int same_b(int x) { return x * 1000 + 77; }
int same_c(int x) { return x * 1000 + 77; }
