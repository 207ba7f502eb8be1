#include <stdio.h>
/* Nothing references this member, so it must not be loaded and its constructor never runs. */
int util_unused(void) { return 1; }
__attribute__((constructor)) static void unused_loaded(void) { printf("[unused.o loaded!]\n"); }
