/* __start_SEC/__stop_SEC: a table of structs registered from several TUs into one custom section
   and walked at run time through the linker-defined bounds. The entries appear in link order. */
#include "registry.h"
#include <stdio.h>
#include <stdint.h>

static int identity(int x) { return x; }
REGISTER_COMMAND(identity, identity, 0);

extern const char __start_unreferenced_table[] __attribute__((weak));

int main(void) {
    size_t n = (size_t)(__stop_commands - __start_commands);
    size_t bytes = (size_t)((const char *)__stop_commands - (const char *)__start_commands);
    printf("%zu commands (%zu bytes)\n", n, bytes);
    int failures = bytes != n * sizeof(struct command) || n != 5;
    int last_order = -1;
    for (const struct command *c = __start_commands; c < __stop_commands; ++c) {
        printf("  [%d] %-9s run(7) = %d\n", c->order, c->name, c->run(7));
        failures += c->order <= last_order; /* link order: main.c alpha.c beta.c gamma.c delta.c */
        last_order = c->order;
    }
    printf("__start_unreferenced_table is %s\n", __start_unreferenced_table ? "defined" : "NULL");
    return failures;
}
