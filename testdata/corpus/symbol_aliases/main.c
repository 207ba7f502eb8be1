/* Symbol aliases seen from another TU: the aliases are the same address as their target, a weak
   alias is overridden by a strong definition here, a C name bound to a different assembler label,
   and a function defined only in top-level asm. */
#include <stdio.h>

int real_impl(int), alias_impl(int), weak_alias_impl(int), overridden_alias(int);
extern int counter_storage, counter_alias;
int call_label(int) __asm__("the_real_label");
int asm_defined_answer(void);

int overridden_alias(int x) { return -x; }

/* Addresses go through volatile variables so the compiler cannot fold comparisons between what
   it believes are distinct objects. */
static int (*volatile p_real)(int) = real_impl;
static int (*volatile p_alias)(int) = alias_impl;
static int (*volatile p_weak_alias)(int) = weak_alias_impl;
static int (*volatile p_overridden)(int) = overridden_alias;
static int *volatile p_counter_storage = &counter_storage;
static int *volatile p_counter_alias = &counter_alias;

int main(void) {
    int failures = 0;
    printf("real=%d alias=%d weak_alias=%d overridden=%d\n", real_impl(5), alias_impl(5),
           weak_alias_impl(5), overridden_alias(5));
    failures += p_alias != p_real || p_weak_alias != p_real;
    failures += p_overridden == p_real || overridden_alias(5) != -5;
    counter_alias += 10;
    printf("counter_storage=%d same object=%d\n", counter_storage,
           p_counter_alias == p_counter_storage);
    failures += counter_storage != 15 || p_counter_alias != p_counter_storage;
    printf("label call=%d asm_defined_answer=%d\n", call_label(1), asm_defined_answer());
    failures += call_label(1) != 1001 || asm_defined_answer() != 42;
    return failures;
}
