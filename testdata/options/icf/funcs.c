/* Functions for --icf: twins with the same code, pairs that differ only in whom they call,
 * mutually recursive twins, an address-taken twin, and read-only data. */

int leaf_a(int x) { return x * 7 + 3; }
int leaf_b(int x) { return x * 7 + 3; }
int leaf_other(int x) { return x * 5 + 1; }

/* Identical code calling identical functions: folded once their callees are. */
int call_a(int x) { return leaf_a(x) + 1; }
int call_b(int x) { return leaf_b(x) + 1; }
/* The same code calling a different function: never folded with call_a. */
int call_other(int x) { return leaf_other(x) + 1; }

/* Mutually recursive twins: equal only if each is assumed equal to the other. */
int ping_a(int n);
int pong_a(int n) { return n <= 0 ? 0 : ping_a(n - 1) + 2; }
int ping_a(int n) { return n <= 0 ? 1 : pong_a(n - 1) + 2; }
int ping_b(int n);
int pong_b(int n) { return n <= 0 ? 0 : ping_b(n - 1) + 2; }
int ping_b(int n) { return n <= 0 ? 1 : pong_b(n - 1) + 2; }

/* Twins whose address main takes and compares. */
int addr_a(int x) { return x ^ 0x55; }
int addr_b(int x) { return x ^ 0x55; }

/* Read-only data with equal contents; main compares the two addresses. */
const int table_a[4] = {1, 2, 3, 4};
const int table_b[4] = {1, 2, 3, 4};
const int table_c[4] = {1, 2, 3, 4};

/* Exported to a library's users (-shared variant): preemptible, calls through the PLT. */
int api_a(int x) { return leaf_a(x) * 2; }
int api_b(int x) { return leaf_b(x) * 2; }
/* Hidden: not preemptible, so their callers may fold. */
__attribute__((visibility("hidden"))) int hid_a(int x) { return x - 9; }
__attribute__((visibility("hidden"))) int hid_b(int x) { return x - 9; }
int use_hid_a(int x) { return hid_a(x) + 4; }
int use_hid_b(int x) { return hid_b(x) + 4; }
