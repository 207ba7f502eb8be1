/* Raw .init_array/.fini_array entries, in a TU of their own: the order of the unprioritised
   entries within one object differs between gcc and clang, across objects it is link order. */
#include <stdio.h>

static void raw_init(void) { printf("raw .init_array entry (raw.c)\n"); }
static void raw_fini(void) { printf("raw .fini_array entry (raw.c)\n"); }
__attribute__((used, section(".init_array"))) static void (*raw_init_p)(void) = raw_init;
__attribute__((used, section(".fini_array"))) static void (*raw_fini_p)(void) = raw_fini;
