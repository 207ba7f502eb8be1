/* The same in a second file, which calls the first. */
static int second_static = 1;
__attribute__((visibility("hidden"))) int second_hidden = 2;
int first(void);
int _start(void) { return second_static + second_hidden + first(); }
