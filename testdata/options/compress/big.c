/* A non-allocated section of about 2.3 MiB, more than two of the 1 MiB shards compression cuts
   sections into: the shards' joins must decompress to the original. */
__asm__(".section .weld_big,\"\",@progbits\n"
        ".rept 40000\n"
        ".ascii \"a big non-allocated section, cut into shards when compressed\\n\"\n"
        ".endr\n"
        ".text\n");

int big_marker(void) { return 1; }
