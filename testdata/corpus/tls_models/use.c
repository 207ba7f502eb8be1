/* Accesses to the variables of vars.c with each model named explicitly. */
extern __thread int gd_var __attribute__((tls_model("global-dynamic")));
extern __thread int ie_var __attribute__((tls_model("initial-exec")));
extern __thread int le_var __attribute__((tls_model("local-exec")));
extern __thread long zero_var __attribute__((tls_model("initial-exec")));
extern __thread int big_tbss[64] __attribute__((tls_model("global-dynamic")));

int *gd_addr(void) { return &gd_var; }
int *ie_addr(void) { return &ie_var; }
int *le_addr(void) { return &le_var; }
long *zero_addr(void) { return &zero_var; }
int big_sum(void) {
    int s = 0;
    for (int i = 0; i < 64; ++i)
        s += big_tbss[i];
    return s;
}
void big_fill(int v) {
    for (int i = 0; i < 64; ++i)
        big_tbss[i] = v + i;
}
