#include "opts.h"
static const unsigned char bytes[] = "the quick brown fox jumps over the lazy dog";
int table_value(int i) { return (i * 37 + 11) % 101 - 50; }
const unsigned char *table_bytes(void) { return bytes; }
int table_size(void) { return (int)sizeof bytes - 1; }
