/* Drives relocs.s and abs.s: every function returns an address or value computed through one
   relocation type, compared with what the compiler computes. Prints one line per check; the exit
   status is the number of failed checks. TLS checks run in the main thread and in a second one. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

int target_var = 42;
int target_func(void) { return 7; }
int sized_array[37];
__thread int tls_a = 11;
__thread int tls_b = 22;

void *asm_pc32(void), *asm_abs64(void), *asm_abs64_addend(void), *asm_pc64(void);
void *asm_gotpcrel_data(void), *asm_gotpcrel_push(void), *asm_rex_gotpcrelx(void);
int asm_plt32(void), asm_gotpcrelx_call(void), asm_gotpcrelx_jmp(void);
uint32_t asm_gotpcrelx_mov32(void);
void *asm_gotpc32(void), *asm_gotpc64(void), *asm_gotoff64(void), *asm_got64(void);
uint32_t asm_size32(void), asm_size32_addend(void);
uint64_t asm_size64(void);
void *asm_tpoff32(void), *asm_tpoff64(void), *asm_gottpoff(void), *asm_tlsgd(void);
void *asm_tlsld(void), *asm_tlsld_dtpoff64(void), *asm_tlsld_dtpoff64_data(void);
void *asm_tls_local_le(void), *asm_tlsdesc(void);
void *asm_pc16(void), *asm_pc8(void), *asm_near_target(void);
#ifndef __PIE__
uint32_t asm_abs32(void), asm_abs32_data(void), asm_abs16(void), asm_abs8(void);
void *asm_abs32s(void);
int asm_abs32s_disp(void);
#endif

static int failures;
static void check(const char *what, int ok) {
    printf("%-44s %s\n", what, ok ? "ok" : "WRONG");
    failures += !ok;
}

static int tls_checks(const char *who) {
    int bad = 0;
    bad += asm_tpoff32() != &tls_a;
    bad += asm_tpoff64() != &tls_a;
    bad += asm_gottpoff() != &tls_a;
    bad += asm_tlsgd() != &tls_b;
    bad += asm_tlsdesc() != &tls_b;
    void *local = asm_tls_local_le();
    bad += asm_tlsld() != local;
    bad += asm_tlsld_dtpoff64() != local;
    bad += asm_tlsld_dtpoff64_data() != local;
    bad += *(uint64_t *)local != 0x4444;
    printf("TLS checks in %s thread: %s\n", who, bad ? "WRONG" : "ok");
    return bad;
}

static void *thread_main(void *arg) {
    *(int *)arg = tls_checks("second");
    return NULL;
}

int main(void) {
    sized_array[0] = 1234;
    check("R_X86_64_PC32 lea", asm_pc32() == &target_var);
    check("R_X86_64_PLT32 call", asm_plt32() == 7);
    check("R_X86_64_64 data", asm_abs64() == &target_var);
    check("R_X86_64_64 data with addend", asm_abs64_addend() == (char *)sized_array + 8);
    check("R_X86_64_PC64 data", asm_pc64() == &target_var);
    check("R_X86_64_GOTPCREL data word -> GOT entry", asm_gotpcrel_data() == &target_var);
    check("R_X86_64_GOTPCREL push", asm_gotpcrel_push() == &target_var);
    check("R_X86_64_GOTPCRELX call *", asm_gotpcrelx_call() == 7);
    check("R_X86_64_GOTPCRELX jmp *", asm_gotpcrelx_jmp() == 7);
    check("R_X86_64_GOTPCRELX movl", asm_gotpcrelx_mov32() == (uint32_t)(uintptr_t)&target_var);
    check("R_X86_64_REX_GOTPCRELX movq", asm_rex_gotpcrelx() == &target_var);
    check("R_X86_64_GOTPC32 == R_X86_64_GOTPC64", asm_gotpc32() == asm_gotpc64());
    check("R_X86_64_GOTOFF64 + GOT == address", asm_gotoff64() == &target_var);
    check("R_X86_64_GOT64 entry holds the address", asm_got64() == &target_var);
    check("R_X86_64_SIZE32 == 148", asm_size32() == sizeof sized_array);
    check("R_X86_64_SIZE32 with addend == 248", asm_size32_addend() == sizeof sized_array + 100);
    check("R_X86_64_SIZE64 == 148", asm_size64() == sizeof sized_array);
    check("R_X86_64_PC16 data", asm_pc16() == asm_near_target());
    check("R_X86_64_PC8 data", asm_pc8() == asm_near_target());
    check("near target contents", *(uint64_t *)asm_near_target() == 0x0123456789abcdefull);
#ifndef __PIE__
    check("R_X86_64_32 movl", asm_abs32() == (uint32_t)(uintptr_t)&target_var);
    check("R_X86_64_32 data", asm_abs32_data() == (uint32_t)(uintptr_t)&target_var);
    check("R_X86_64_32S movq", asm_abs32s() == &target_var);
    check("R_X86_64_32S displacement", asm_abs32s_disp() == 1234);
    check("R_X86_64_16 absolute + 3", asm_abs16() == 0x1233);
    check("R_X86_64_8 absolute + 1", asm_abs8() == 0x41);
#endif
    failures += tls_checks("main");
    pthread_t t;
    int thread_bad = -1;
    pthread_create(&t, NULL, thread_main, &thread_bad);
    pthread_join(t, NULL);
    failures += thread_bad != 0;
    printf("%d failures\n", failures);
    return failures;
}
