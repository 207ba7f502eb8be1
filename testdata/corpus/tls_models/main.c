/* TLS access models, each named explicitly (global-dynamic, local-dynamic, initial-exec,
   local-exec, and TLS descriptors), checked against each other in the main thread and in worker
   threads: every model must reach the same per-thread variable. */
#include <pthread.h>
#include <stdio.h>

extern __thread int gd_var, ie_var, le_var, desc_var;
extern __thread long zero_var;
int ld_sum(void);
void ld_bump(int n);
int *ld_a_addr(void);
int *gd_addr_in_definer(void);
int *gd_addr(void);
int *ie_addr(void);
int *le_addr(void);
long *zero_addr(void);
int big_sum(void);
void big_fill(int v);
int *desc_addr(void);
int desc_local_sum(void);
void desc_local_bump(void);

static int check(int id, char *out, int outlen) {
    int bad = 0;
    bad += gd_addr() != &gd_var;
    bad += gd_addr_in_definer() != &gd_var;
    bad += ie_addr() != &ie_var;
    bad += le_addr() != &le_var;
    bad += zero_addr() != &zero_var;
    bad += desc_addr() != &desc_var;
    int v0 = gd_var + ie_var * 10 + le_var * 100 + desc_var * 1000;
    int ld0 = ld_sum();
    int dl0 = desc_local_sum();
    long z0 = zero_var;
    int b0 = big_sum();
    gd_var += id;
    ie_var += id;
    ld_bump(id);
    desc_local_bump();
    *zero_addr() += 5;
    big_fill(id);
    *ld_a_addr() += 1;
    snprintf(out, outlen, "v0=%d ld0=%d dl0=%d z0=%ld b0=%d | gd=%d ie=%d ld=%d dl=%d z=%ld b=%d bad=%d",
             v0, ld0, dl0, z0, b0, gd_var, ie_var, ld_sum(), desc_local_sum(), zero_var, big_sum(),
             bad);
    return bad;
}

struct job {
    int id, bad;
    char text[200];
};

static void *worker(void *p) {
    struct job *j = p;
    j->bad = check(j->id, j->text, sizeof j->text);
    return NULL;
}

int main(void) {
    struct job jobs[3] = {{1, 0, ""}, {2, 0, ""}, {3, 0, ""}};
    pthread_t th[3];
    for (int i = 0; i < 3; ++i)
        pthread_create(&th[i], NULL, worker, &jobs[i]);
    for (int i = 0; i < 3; ++i)
        pthread_join(th[i], NULL);
    struct job m = {7, 0, ""};
    m.bad = check(m.id, m.text, sizeof m.text);
    int bad = m.bad;
    for (int i = 0; i < 3; ++i) {
        printf("thread %d: %s\n", jobs[i].id, jobs[i].text);
        bad += jobs[i].bad;
    }
    printf("main %d: %s\n", m.id, m.text);
    return bad;
}
