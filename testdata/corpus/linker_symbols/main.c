/* Symbols the linker defines: __ehdr_start (the ELF header, mapped), __executable_start, etext,
   edata, end, __bss_start, __init_array_start/end, __fini_array_start/end, and
   __preinit_array_start/end (with a .preinit_array entry); their order relative to the program's
   own code and data. */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern const Elf64_Ehdr __ehdr_start;
extern char __executable_start[], etext[], edata[], end[], __bss_start[];
extern char _etext[], _edata[], _end[];
typedef void (*fn)(void);
extern fn __init_array_start[], __init_array_end[];
extern fn __fini_array_start[], __fini_array_end[];
extern fn __preinit_array_start[], __preinit_array_end[];

int data_var = 1;
int bss_var;
/* volatile: clang -O1 would otherwise evaluate the constructor at compile time (assuming nothing
   runs before it) and drop it from .init_array. */
static volatile int preinit_ran, init_ran;

static void preinit(void) { preinit_ran = 1; }
static void init(void) { init_ran = preinit_ran + 1; }
__attribute__((used, section(".preinit_array"))) static fn preinit_p = preinit;
__attribute__((constructor)) static void ctor(void) { init(); }

int main(void) {
    int failures = 0;
#define CHECK(cond)                                                                              \
    do {                                                                                         \
        int ok_ = (cond);                                                                        \
        printf("%-62s %s\n", #cond, ok_ ? "ok" : "WRONG");                                       \
        failures += !ok_;                                                                        \
    } while (0)
    CHECK(memcmp(__ehdr_start.e_ident, ELFMAG, SELFMAG) == 0);
    CHECK(__ehdr_start.e_type == ET_EXEC || __ehdr_start.e_type == ET_DYN);
    CHECK(__ehdr_start.e_machine == EM_X86_64);
    CHECK((void *)__executable_start == (void *)&__ehdr_start);
    CHECK(etext == _etext && edata == _edata && end == _end);
    CHECK((uintptr_t)main < (uintptr_t)etext);
    CHECK((uintptr_t)etext <= (uintptr_t)&data_var);
    CHECK((uintptr_t)&data_var < (uintptr_t)edata);
    CHECK((uintptr_t)edata <= (uintptr_t)__bss_start + 0x1000);
    CHECK((uintptr_t)__bss_start <= (uintptr_t)&bss_var);
    CHECK((uintptr_t)&bss_var < (uintptr_t)end);
    CHECK(__init_array_end - __init_array_start >= 1);
    CHECK(__fini_array_end - __fini_array_start >= 1);
    CHECK(__preinit_array_end - __preinit_array_start == 1);
    CHECK(__preinit_array_start[0] == preinit);
    CHECK(preinit_ran == 1 && init_ran == 2);
    int found_ctor = 0;
    for (fn *f = __init_array_start; f < __init_array_end; ++f)
        found_ctor += *f == ctor;
    CHECK(found_ctor == 1);
    return failures;
}
