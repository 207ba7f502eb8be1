/* Version 2 of libsv.so.1: the old foo stays as foo@V1 for old programs, new programs get
   foo@@V2. */
__asm__(".symver foo_v1, foo@V1");
__asm__(".symver foo_v2, foo@@V2");
int foo_v1(void) { return 1; }
int foo_v2(void) { return 2; }
int sv_new_api(void) { return 20; }
