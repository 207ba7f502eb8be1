/* gdb_index: malformed .debug_gnu_pubnames sets (top-level asm appends them to the section
   of this -g object): a set whose terminator comes 7 bytes before its stated end, then a set
   whose stated length runs far past the section. lld warns about both (LLVM's words). */
int bad_pubnames(void) { return 1; }

__asm__(".section .debug_gnu_pubnames,\"\",@progbits\n"
        ".long 30\n.short 2\n.long 0\n.long 0x40\n"
        ".long 0x2a\n.byte 0x30\n.asciz \"abc\"\n.long 0\n.zero 8\n"
        ".long 14\n.short 2\n.long 0\n.long 0x40\n.long 0\n"
        ".text\n");
