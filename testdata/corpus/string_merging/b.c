#include <wchar.h>
const char *b_hello(void) { return "hello world"; }
const char *b_world(void) { return "world"; }
const char *b_long(void) { return "a fairly long literal shared between translation units"; }
const wchar_t *b_wide(void) { return L"wide literal"; }
const char *b_embedded_nul(void) { return "before\0after"; }
double b_constant(void) { return 2.718281828459045; }
const char *b_empty(void) { return ""; }
