/* The program inspects its own program headers at run time through dl_iterate_phdr and
   getauxval(AT_PHDR/AT_PHNUM) (which a static binary finds through the linker-provided headers):
   the segment types, their permission flags, the PT_TLS size and alignment, and that the entry
   point lies in an executable PT_LOAD. */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>

__thread char tls_data[24] = "tls";
__thread char tls_zero[40] __attribute__((aligned(16)));

static const char *type_name(uint32_t t) {
    switch (t) {
    case PT_LOAD: return "LOAD";
    case PT_DYNAMIC: return "DYNAMIC";
    case PT_INTERP: return "INTERP";
    case PT_NOTE: return "NOTE";
    case PT_PHDR: return "PHDR";
    case PT_TLS: return "TLS";
    case PT_GNU_EH_FRAME: return "GNU_EH_FRAME";
    case PT_GNU_STACK: return "GNU_STACK";
    case PT_GNU_RELRO: return "GNU_RELRO";
    case PT_GNU_PROPERTY: return "GNU_PROPERTY";
    default: return "OTHER";
    }
}

static int objects, failures;

static int callback(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    objects++;
    if (objects > 1)
        return 0; /* only the executable itself (the vDSO may follow) */
    uintptr_t entry = getauxval(AT_ENTRY);
    int entry_in_exec = 0, loads = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uint32_t f = ph->p_flags;
        printf("%-13s %c%c%c", type_name(ph->p_type), f & PF_R ? 'R' : '-', f & PF_W ? 'W' : '-',
               f & PF_X ? 'X' : '-');
        if (ph->p_type == PT_TLS)
            printf(" memsz>=%d align=%lu", ph->p_memsz >= 64, (unsigned long)ph->p_align);
        printf("\n");
        if (ph->p_type == PT_LOAD) {
            loads++;
            uintptr_t start = info->dlpi_addr + ph->p_vaddr;
            if ((f & PF_X) && entry >= start && entry < start + ph->p_memsz)
                entry_in_exec = 1;
            failures += (f & (PF_W | PF_X)) == (PF_W | PF_X); /* no W+X segment */
        }
    }
    printf("entry in executable LOAD: %s; LOADs: %d\n", entry_in_exec ? "yes" : "no", loads);
    failures += !entry_in_exec;
    return 0;
}

int main(void) {
    const ElfW(Phdr) *phdr = (const ElfW(Phdr) *)getauxval(AT_PHDR);
    unsigned long phnum = getauxval(AT_PHNUM);
    printf("AT_PHDR set: %s, AT_PHNUM: %s\n", phdr ? "yes" : "no", phnum > 0 ? "non-zero" : "zero");
    dl_iterate_phdr(callback, NULL);
    tls_zero[39] = tls_data[0];
    return failures + (phdr == NULL) + (tls_zero[39] != 't');
}
