/* The program entry for links without crt1.o (whose Debian build lacks the IBT property, so
   that a program using it never gets an IBT PLT): glibc's startup, compiled with
   -fcf-protection. */
__attribute__((naked, noreturn)) void _start(void) {
  __asm__("endbr64\n"
          "xor %ebp, %ebp\n"
          "mov %rdx, %r9\n"   /* rtld_fini */
          "pop %rsi\n"        /* argc */
          "mov %rsp, %rdx\n"  /* argv */
          "and $-16, %rsp\n"
          "push %rax\n"
          "push %rsp\n"       /* stack_end */
          "xor %r8d, %r8d\n"  /* fini */
          "xor %ecx, %ecx\n"  /* init */
          "mov main@GOTPCREL(%rip), %rdi\n"
          "call *__libc_start_main@GOTPCREL(%rip)\n"
          "hlt\n");
}
