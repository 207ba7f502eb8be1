/* gdb_index: a malformed DWARF64 .debug_gnu_pubtypes set: its name has no terminating NUL
   before the end of the section. */
int bad_pubtypes(void) { return 2; }

__asm__(".section .debug_gnu_pubtypes,\"\",@progbits\n"
        ".long 0xffffffff\n.quad 28\n.short 2\n.quad 0\n.quad 0x40\n"
        ".quad 0x2a\n.byte 0x90\n.ascii \"Shape\"\n"
        ".text\n");
