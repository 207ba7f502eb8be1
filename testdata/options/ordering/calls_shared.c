/* Refers to the shared library's function and to a symbol nothing defines (weakly). */
int shared_fn(int);
extern int weak_missing(int) __attribute__((weak));
int call_shared(int x) { return shared_fn(x) + (weak_missing ? weak_missing(x) : 0); }
