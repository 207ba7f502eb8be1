/* libimpl2.so, the second filtee: it must exist (a missing DT_FILTER filtee is fatal). */
int other(void) { return 2; }
