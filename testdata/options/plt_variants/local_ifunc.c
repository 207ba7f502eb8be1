/* A file-local IFUNC: gcc keeps `lf` an STB_LOCAL STT_GNU_IFUNC symbol, which has no .dynsym
   entry for a -z ifunc-noplt dynamic relocation to name. */
static int impl(void) { return 7; }
static void *resolve(void) { return (void *)impl; }
static int lf(void) __attribute__((ifunc("resolve")));
int (*volatile lp)(void) = lf;
int use_local(void) { return lf() + lp(); }
