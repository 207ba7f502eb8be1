/* libzip.a(zip.o). Compiled without -ffunction-sections: zip() shares .text with zip_init(). */
#include <stdio.h>
__attribute__((constructor)) static void zip_init(void) { puts("zip init"); }
void zip(void) { puts("zip"); }
