/* Weak default definitions; strong.c overrides some of them. */
#include <stdio.h>

__attribute__((weak)) const char *greeting(void) { return "weak greeting"; }
__attribute__((weak)) const char *farewell(void) { return "weak farewell"; }
__attribute__((weak)) int config_level = 1;
__attribute__((weak)) int config_limit = 10;

const char *default_greeting_address_check(void) { return greeting(); }
