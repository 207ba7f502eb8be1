#pragma once
/* A table of commands spread over several TUs, collected by the linker into the section
   `commands`; __start_commands/__stop_commands bound it. `retain` (SHF_GNU_RETAIN) keeps the
   entries under --gc-sections, where lld does not keep sections just for __start_/__stop_. */
struct command {
    const char *name;
    int (*run)(int);
    int order;
};
#define REGISTER_COMMAND(id, fn, ord)                                                            \
    __attribute__((used, retain, section("commands"), aligned(8))) static const struct command cmd_##id = \
        {#id, fn, ord}
extern const struct command __start_commands[], __stop_commands[];
