/* A program without the C library (its crt's .init pieces would be split apart by --unique):
 * _start adds up what the other file's sections hold and exits with it. */
int twice(int x);
int thrice(int x);
extern int counter;
extern const char *words[];

static long sys_exit(long code) {
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(60), "D"(code) : "rcx", "r11", "memory");
    return ret;
}

static const char banner[] = "unique sections";

void _start(void) {
    int n = twice(counter) + thrice(3) + (words[1][0] == 'b') + (banner[0] == 'u');
    sys_exit(n);
}
