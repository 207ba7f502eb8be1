/* The file whose symbols --just-symbols takes: functions, data, a hidden symbol (local in an
 * executable), a TLS variable, a weak definition, a static one. */
int shared_counter = 41;
static int private_counter = 3;
__attribute__((visibility("hidden"))) int hidden_value = 5;
__thread int per_thread = 1;
__attribute__((weak)) int weak_value = 9;
int base_func(int x) { return x + shared_counter + private_counter + hidden_value; }
