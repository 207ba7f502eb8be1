/* 3 GiB of zeroes in .bss: costs address space, not memory or file size. */
char big[3u << 30];
int after;
