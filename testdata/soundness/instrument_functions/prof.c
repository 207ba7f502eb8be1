extern void bc_note(void);
int enters, exits;
__attribute__((no_instrument_function)) void __cyg_profile_func_enter(void *f, void *c) { (void)f; (void)c; enters++; bc_note(); }
__attribute__((no_instrument_function)) void __cyg_profile_func_exit(void *f, void *c) { (void)f; (void)c; exits++; }
