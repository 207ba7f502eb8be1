/* internal_fn and internal_data are global in the object but hidden by `local: *`: the library's
   own uses bind to them even though the program defines the same names. */
int internal_fn(void) { return 1; }
int internal_data = 10;
int public_fn(void) { return internal_fn() * 100 + internal_data; }
