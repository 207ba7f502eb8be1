/* Tentative definitions: `buffer` has 4 ints here and 64 in big.c; the largest wins. */
int buffer[4];
int shared_counter;
long only_here;
char aligned_common[3] __attribute__((aligned(64)));

int *buffer_from_small(void) { return buffer; }
void small_bump(void) { shared_counter += 1; }
