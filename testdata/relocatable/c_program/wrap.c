/* The wrapper of `--wrap=apply`: main.c's calls come here, this one's `__real_apply` goes to
   funcs.c's `apply`. */
extern int __real_apply(int (*)(int), int);
int __wrap_apply(int (*f)(int), int x) { return __real_apply(f, x) + 1000; }
