/* A static program without libc, so that every input carries the IBT property (libc.a's
   members do not): its own entry point applies the IRELATIVE relocations the linker lists
   between __rela_iplt_start and __rela_iplt_end, calls the IFUNCs and prints with write(2). */
typedef struct {
  unsigned long offset, info;
  long addend;
} rela;

extern const rela __rela_iplt_start[], __rela_iplt_end[];
int fa(void);
int fb(void);
int (*volatile fb_ptr)(void) = fb;

static long sys(long n, long a, long b, long c) {
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
}

static char *num(char *p, int v) {
  char t[12];
  int n = 0;
  do {
    t[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n)
    *p++ = t[--n];
  return p;
}

__attribute__((used)) static void start_c(void) {
  for (const rela *r = __rela_iplt_start; r < __rela_iplt_end; r++) {
    unsigned long (*resolver)(void) = (unsigned long (*)(void))r->addend;
    *(unsigned long *)r->offset = resolver();
  }
  char buf[64], *p = buf;
  static const char a[] = "freestanding fa=", b[] = " fb=";
  for (const char *s = a; *s; s++)
    *p++ = *s;
  p = num(p, fa());
  for (const char *s = b; *s; s++)
    *p++ = *s;
  p = num(p, fb_ptr());
  *p++ = '\n';
  sys(1, 1, (long)buf, p - buf);
  sys(60, 0, 0, 0);
  __builtin_unreachable();
}

__attribute__((naked, noreturn)) void _start(void) {
  __asm__("endbr64\n"
          "xor %ebp, %ebp\n"
          "and $-16, %rsp\n"
          "call start_c\n"
          "hlt\n");
}
