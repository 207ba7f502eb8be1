/* Functions, data and strings in sections of their own (-ffunction-sections -fdata-sections):
 * under --unique each becomes an output section. */
int counter = 5;
const char *words[] = {"alpha", "beta", "gamma"};
int twice(int x) { return 2 * x; }
int thrice(int x) { return 3 * x; }
static int unused_helper(int x) { return x; }
int (*keep)(int) = unused_helper;
