/* libdeplib.a */
int helper(void) { return 7; }
