const char *lib_id(void) { return "libsn"; }
