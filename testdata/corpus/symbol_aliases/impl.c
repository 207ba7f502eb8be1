/* Aliases: several names for one definition (alias attribute), a weak alias a strong definition
   in main.c overrides, an assembler-renamed symbol, and a symbol defined by top-level asm. */
int real_impl(int x) { return x * 3; }
int alias_impl(int x) __attribute__((alias("real_impl")));
int weak_alias_impl(int x) __attribute__((weak, alias("real_impl")));
int overridden_alias(int x) __attribute__((weak, alias("real_impl")));

int counter_storage = 5;
extern int counter_alias __attribute__((alias("counter_storage")));

int renamed_function(int x) __asm__("the_real_label");
int renamed_function(int x) { return x + 1000; }

__asm__(".globl asm_defined_answer\n"
        ".type asm_defined_answer, @function\n"
        "asm_defined_answer:\n"
        "  movl $42, %eax\n"
        "  ret\n"
        ".size asm_defined_answer, .-asm_defined_answer\n");
