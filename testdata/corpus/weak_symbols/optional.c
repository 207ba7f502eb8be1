/* Lives in libcase.a and is only referenced weakly: an undefined weak reference does not pull an
   archive member in, so this constructor never runs and optional_feature stays NULL. */
#include <stdio.h>
int optional_feature(void) { return 99; }
__attribute__((constructor)) static void loaded(void) { printf("optional.o was loaded!\n"); }
