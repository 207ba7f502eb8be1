/* Defines hook() and shared_data, which the program defines too, and uses them itself. */
int hook(void) { return 1; }
int lib_calls_hook(void) { return hook() * 10; }
int shared_data = 100;
int lib_reads_data(void) { return shared_data; }
int (*lib_hook_address(void))(void) { return hook; }
