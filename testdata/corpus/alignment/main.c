/* Alignment: data, read-only data, bss and functions with alignments from 32 bytes to 8 KiB must
   land on such boundaries (section and segment alignment in the output), next to small objects. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern char small_before, small_between;
extern int data_4k[3];
extern const char rodata_256[7];
extern char bss_8k[10];
extern double data_32[2];
int aligned_function(int);
static char local_bss_16k[3] __attribute__((aligned(16384)));
static const int local_rodata[2] __attribute__((aligned(1024))) = {7, 8};

#define ALIGNED(p, a) (((uintptr_t)(p) & ((a)-1)) == 0)

int main(void) {
    struct {
        const char *name;
        const void *p;
        uintptr_t align;
    } items[] = {
        {"data_4k", data_4k, 4096},       {"rodata_256", rodata_256, 256},
        {"bss_8k", bss_8k, 8192},         {"data_32", data_32, 32},
        {"aligned_function", (const void *)aligned_function, 64},
        {"local_bss_16k", local_bss_16k, 16384}, {"local_rodata", local_rodata, 1024},
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; ++i) {
        int ok = ALIGNED(items[i].p, items[i].align);
        printf("%-18s aligned to %5lu: %s\n", items[i].name, (unsigned long)items[i].align,
               ok ? "yes" : "NO");
        failures += !ok;
    }
    printf("values: %d %d %d %s %d %.1f %d %d %d %d\n", data_4k[0], data_4k[2], small_before,
           rodata_256, small_between, data_32[1], aligned_function(21), bss_8k[9],
           local_bss_16k[2], local_rodata[1]);
    failures += strcmp(rodata_256, "ro-256") != 0 || data_4k[2] != 3;
    return failures;
}
