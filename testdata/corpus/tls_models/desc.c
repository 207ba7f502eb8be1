/* Compiled with -mtls-dialect=gnu2: TLS descriptors, for an extern variable (general dynamic) and
   for static ones (local dynamic through _TLS_MODULE_BASE_). */
extern __thread int desc_var;
static __thread int desc_local = 5;
static __thread int desc_local2 = 6;

int *desc_addr(void) { return &desc_var; }
int desc_local_sum(void) { return desc_local + desc_local2; }
void desc_local_bump(void) {
    desc_local += 100;
    desc_local2 += 100;
}
