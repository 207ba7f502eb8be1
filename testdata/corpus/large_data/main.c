/* Large data: the program writes a pattern across the 64 MiB .bss array and checks it, sums the
   3 MiB initialised array, and reads data placed after the big sections. */
#include <stdint.h>
#include <stdio.h>

#define BIG_BSS_BYTES (64u << 20)
#define BIG_DATA_INTS ((3u << 20) / 4)
extern unsigned char big_bss[BIG_BSS_BYTES];
extern unsigned int big_data[BIG_DATA_INTS];
extern const unsigned long big_rodata[65536];
extern int after_big;
static char small_bss[100];

int main(void) {
    unsigned long zero_check = 0;
    for (size_t i = 0; i < BIG_BSS_BYTES; i += 4096)
        zero_check |= big_bss[i];
    zero_check |= big_bss[BIG_BSS_BYTES - 1];
    for (size_t i = 0; i < BIG_BSS_BYTES; i += 1u << 16)
        big_bss[i] = (unsigned char)(i >> 16);
    big_bss[BIG_BSS_BYTES - 1] = 0xAB;
    unsigned long pattern = 0;
    for (size_t i = 0; i < BIG_BSS_BYTES; i += 1u << 16)
        pattern += big_bss[i];
    uint64_t sum = 0;
    unsigned nonzero = 0;
    for (size_t i = 0; i < BIG_DATA_INTS; ++i) {
        sum += big_data[i];
        nonzero += big_data[i] != 0;
    }
    printf("bss: initially zero=%s pattern=%lu last=0x%X\n", zero_check ? "no" : "yes", pattern,
           big_bss[BIG_BSS_BYTES - 1]);
    printf("data: sum=0x%llx nonzero=%u first=0x%x last=0x%x\n", (unsigned long long)sum, nonzero,
           big_data[0], big_data[BIG_DATA_INTS - 1]);
    printf("rodata: %lu %lu; after_big=%d small_bss[99]=%d\n", big_rodata[0], big_rodata[65535],
           after_big, small_bss[99]);
    return zero_check == 0 && nonzero == 8 && after_big == 12345 ? 0 : 1;
}
