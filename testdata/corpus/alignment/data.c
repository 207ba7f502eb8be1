/* Over-aligned objects in every kind of section, from a second TU. */
char small_before = 1;
int data_4k[3] __attribute__((aligned(4096))) = {1, 2, 3};
char small_between = 2;
const char rodata_256[7] __attribute__((aligned(256))) = "ro-256";
char bss_8k[10] __attribute__((aligned(8192)));
double data_32[2] __attribute__((aligned(32))) = {1.5, 2.5};
__attribute__((aligned(64), noinline)) int aligned_function(int x) { return x * 2; }
