/* Common symbols (-fcommon): lld gives each its own COMMON section in .bss to order. */
int common_a;
int common_b;
int common_c[4];
int read_commons(void) { return common_a + common_b + common_c[1]; }
