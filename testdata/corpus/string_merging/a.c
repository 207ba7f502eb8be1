/* Literals that also appear in b.c and main.c; the linker may merge them (SHF_MERGE|SHF_STRINGS),
   including tail merging ("world" inside "hello world"). */
#include <wchar.h>
const char *a_hello(void) { return "hello world"; }
const char *a_world(void) { return "world"; }
const char *a_long(void) { return "a fairly long literal shared between translation units"; }
const wchar_t *a_wide(void) { return L"wide literal"; }
double a_constant(void) { return 2.718281828459045; }
const char a_array[] = "an array is not merged";
