/* Hello world in C: stdio, a string from .rodata, argc, and the exit status. */
#include <stdio.h>
#include <string.h>

static const char greeting[] = "hello, world";

int main(int argc, char **argv) {
    (void)argv;
    printf("%s\n", greeting);
    printf("argc=%d len=%zu\n", argc, strlen(greeting));
    puts("bye");
    return strlen(greeting) == 12 && argc == 1 ? 0 : 1;
}
