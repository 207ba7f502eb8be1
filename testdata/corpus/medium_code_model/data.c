/* Medium code model: arrays over the large-data threshold go to .ldata/.lbss/.lrodata
   (SHF_X86_64_LARGE), small ones to .data/.bss/.rodata. The linker places the large sections
   away from .text, and .ldata (with contents) after .bss (without) needs a PT_LOAD of its own:
   packed into the .bss segment, its bytes would be mapped at the wrong addresses. */
int small_data[4] = {1, 2, 3, 4};
int small_bss[4];
const int small_ro[4] = {5, 6, 7, 8};

int big_data[20000] = {[0] = 11, [4] = 15, [19999] = 19};
int big_bss[20000];
const int big_ro[20000] = {[0] = 21, [2] = 23, [19999] = 29};

int *pointers_to_large[3] = {&big_data[4], &big_bss[7], (int *)&big_ro[2]};
