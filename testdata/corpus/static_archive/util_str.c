#include <ctype.h>
#include <stdio.h>
void util_upper(char *s) {
    for (; *s; ++s)
        *s = (char)toupper((unsigned char)*s);
}
__attribute__((constructor)) static void util_str_loaded(void) { printf("[util_str.o loaded]\n"); }
