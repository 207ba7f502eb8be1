/* GOTPCRELX references whose targets end up more than 2 GiB away: `big` fills 3 GiB of .bss,
 * so `after` (laid out behind it) cannot be reached by a relaxed `lea`/`mov $imm32`. lld keeps
 * such references going through the GOT instead of failing; so must weld. */
#include <stdio.h>

extern char big[];
extern int after;

int main(void) {
    big[5] = 3;
    after = 4;
    printf("%d %d\n", big[5], after);
    return 0;
}
