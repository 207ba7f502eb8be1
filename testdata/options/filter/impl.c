/* libimpl.so, the first filtee: its answer() is the one the program gets. */
int answer(void) { return 42; }
