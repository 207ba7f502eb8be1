/* Loads libweldrs.so (argv[1]) with dlopen. Also checks that Rust's internal symbols are not
   exported (rustc's version script for a cdylib). */
#include "api.h"
#include <dlfcn.h>

#define SYM(name) dlsym(h, name)

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  struct rs_api a;
  *(void **)&a.init = SYM("rs_init");
  *(void **)&a.add = SYM("rs_add");
  *(void **)&a.reg = SYM("rs_register");
  *(void **)&a.sum = SYM("rs_sum");
  *(void **)&a.describe = SYM("rs_describe");
  *(void **)&a.free_ = SYM("rs_free");
  *(void **)&a.checked_div = SYM("rs_checked_div");
  *(void **)&a.parallel_sum = SYM("rs_parallel_sum");
  *(void **)&a.thread_calls = SYM("rs_thread_calls");
  a.version = (const int *)SYM("RS_VERSION");
  if (!a.init || !a.add || !a.reg || !a.sum || !a.describe || !a.free_ || !a.checked_div ||
      !a.parallel_sum || !a.thread_calls || !a.version) {
    printf("dlsym failed\n");
    return 1;
  }
  int hidden = !SYM("rust_eh_personality") && !SYM("__rust_alloc") && !SYM("__rdl_alloc") &&
               !SYM("rust_begin_unwind");
  int r = run_all(&a);
  printf("internal Rust symbols hidden: %s\n", hidden ? "yes" : "no");
  return r;
}
