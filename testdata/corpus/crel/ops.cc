extern thread_local int calls;
int twice(int x) { ++calls; return 2 * x; }
int thrice(int x) { ++calls; return 3 * x; }
