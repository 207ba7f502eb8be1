/* TLS layout: over-aligned TLS variables (64 and 4096 bytes) in .tdata and .tbss, a large .tbss
   block, and initial values, checked in several threads (the TLS segment's alignment and the
   thread pointer offsets must be right for every thread). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

__thread char tls_byte = 'x';
__thread int tls_aligned64 __attribute__((aligned(64))) = 64;
__thread char tls_page[100] __attribute__((aligned(4096))) = "page-aligned tdata";
__thread long tls_zero_aligned __attribute__((aligned(128)));
__thread char tls_big_bss[100000];
extern __thread short tls_other_tu;
short *other_tu_addr(void);

static int inspect(const char *who, int id) {
    int bad = 0;
    bad += ((uintptr_t)&tls_aligned64 & 63) != 0;
    bad += ((uintptr_t)&tls_page & 4095) != 0;
    bad += ((uintptr_t)&tls_zero_aligned & 127) != 0;
    bad += tls_byte != 'x' || tls_aligned64 != 64 || strcmp(tls_page, "page-aligned tdata");
    bad += tls_zero_aligned != 0 || tls_big_bss[0] != 0 || tls_big_bss[99999] != 0;
    bad += tls_other_tu != 5 || other_tu_addr() != &tls_other_tu;
    tls_big_bss[99999] = (char)id;
    tls_aligned64 += id;
    tls_other_tu += (short)id;
    printf("%s: alignment and initial values %s, after update %d %d %d\n", who, bad ? "WRONG" : "ok",
           tls_aligned64, tls_big_bss[99999], tls_other_tu);
    return bad;
}

static void *run(void *arg) {
    static char names[4][16];
    intptr_t id = (intptr_t)arg;
    snprintf(names[id], sizeof names[id], "thread %d", (int)id);
    return (void *)(intptr_t)inspect(names[id], (int)id);
}

int main(void) {
    int bad = inspect("main", 0);
    for (intptr_t i = 1; i <= 3; ++i) {
        pthread_t t;
        void *r;
        pthread_create(&t, NULL, run, (void *)i);
        pthread_join(t, &r);
        bad += (int)(intptr_t)r;
    }
    return bad;
}
