/* libt.so, built by ld.lld-22 for both links. */
int t_fn(void) { return 7; }
