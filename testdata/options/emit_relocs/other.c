/* The other half of main.c: data reached through the GOT, an extern TLS variable, and a
 * function only --gc-sections removes (its relocations must go with it). */
int shared_counter = 100;
__thread int tls_other = 7;

int other_fn(int x) { return x * 10 + shared_counter; }

int dead_fn(int x) { return x + shared_counter * 3; }
