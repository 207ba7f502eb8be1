int bc_check(void) { return 0; }
