/* Large sections: a 64 MiB zero-initialised array (.bss) and a 3 MiB initialised array (.data,
   mostly zeros but with non-zero elements spread through it, so it occupies the file). */
#define BIG_BSS_BYTES (64u << 20)
#define BIG_DATA_INTS ((3u << 20) / 4)

unsigned char big_bss[BIG_BSS_BYTES];
unsigned int big_data[BIG_DATA_INTS] = {
    [0] = 0x11111111u,
    [1] = 1,
    [4096] = 2,
    [65536] = 3,
    [262144] = 4,
    [524287] = 5,
    [BIG_DATA_INTS - 2] = 6,
    [BIG_DATA_INTS - 1] = 0x77777777u,
};
const unsigned long big_rodata[65536] = {[0] = 42, [65535] = 43}; /* 512 KiB of .rodata */

/* Data after the big arrays, referenced PC-relatively from main.c. */
int after_big = 12345;
