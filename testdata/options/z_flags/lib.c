/* libz.so: linked with the -z flags in the `shared` variants. */
int lib_value(void) { return 5; }
