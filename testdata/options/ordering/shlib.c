/* libshared.so: a function the ordering file names (a shared symbol). */
int shared_fn(int x) { return x + 1; }
