/* Many exported symbols, so that the hash tables have several buckets and chains. */
#define F(n) int hs_fn_##n(void) { return n; }
#define D(n) int hs_data_##n = n * 3;
#define TEN(M, p) M(p##0) M(p##1) M(p##2) M(p##3) M(p##4) M(p##5) M(p##6) M(p##7) M(p##8) M(p##9)
TEN(F, 1) TEN(F, 2) TEN(F, 3) TEN(F, 4) TEN(F, 5)
TEN(D, 1) TEN(D, 2)
int hs_sum(void);
int hs_sum(void) {
  int s = 0;
#define S(n) s += hs_fn_##n();
  TEN(S, 1) TEN(S, 2) TEN(S, 3) TEN(S, 4) TEN(S, 5)
  return s;
}
