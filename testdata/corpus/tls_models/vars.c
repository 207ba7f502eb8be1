/* The TLS variables, and local-dynamic accesses to static ones. */
__thread int gd_var = 1;
__thread int ie_var = 2;
__thread int le_var = 3;
__thread int desc_var = 4;
__thread long zero_var;
__thread int big_tbss[64];

static __thread int ld_a __attribute__((tls_model("local-dynamic"))) = 10;
static __thread int ld_b __attribute__((tls_model("local-dynamic"))) = 20;

int ld_sum(void) { return ld_a + ld_b; }
void ld_bump(int n) {
    ld_a += n;
    ld_b += 2 * n;
}
int *ld_a_addr(void) { return &ld_a; }
int *gd_addr_in_definer(void) { return &gd_var; }
