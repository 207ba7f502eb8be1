int foo_v1(void) { return 1; }
__asm__(".symver foo_v1, foo@VERS_1");
int bar(void) { return 2; }
