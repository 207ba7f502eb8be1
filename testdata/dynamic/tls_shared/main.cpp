// TLS of a shared library used from the program: initial-exec (this file), general-dynamic
// (gd.c), TLS descriptors (desc.c), a C++ thread_local with a constructor, and the TLS of a
// dlopen'ed plugin (through its functions and through dlsym); in the main thread and in three
// more threads, each of which must see its own copies.
#include "tls.h"
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <pthread.h>

extern "C" __thread int lib_tls_int __attribute__((tls_model("initial-exec")));

namespace {
struct Plugin {
  int *(*tls_addr)(void);
  int (*bump)(int);
  int (*read_lib)(void);
  int *tls_sym;
};
Plugin plugin;
char results[4][512];
int fails;

void run(int id) {
  char *out = results[id];
  int ok = 1;
  ok &= lib_tls_int == 5;
  ok &= &lib_tls_int == lib_tls_int_addr();
  ok &= gd_addr() == &lib_tls_int && desc_addr() == &lib_tls_int;
  lib_tls_int += id;
  gd_add(10 * id);
  desc_add(100 * id);
  std::snprintf(lib_tls_buf, sizeof lib_tls_buf, "thread %d", id);
  lib_tls_arr[3] += id;
  int priv = 0;
  for (int i = 0; i <= id; i++)
    priv = lib_tls_private_next();
  lib_tracker.uses += id + 1;

  int *ptls = plugin.tls_addr();
  ok &= *ptls == 42;
  int bumped = plugin.bump(id);
  int lib_from_plugin = plugin.read_lib();
  std::snprintf(out, 512,
                "thread %d: lib_tls_int=%d sum=%ld buf='%s' private=%d tracker uses=%d "
                "plugin_tls=%d bump=%d plugin sees lib_tls_int=%d addresses %s",
                id, lib_tls_int, lib_tls_sum(), lib_tls_buf, priv, lib_tracker_uses(), *ptls,
                bumped, lib_from_plugin, ok ? "ok" : "WRONG");
  if (!ok || lib_from_plugin != lib_tls_int || lib_tracker.uses != lib_tracker_uses())
    __atomic_add_fetch(&fails, 1, __ATOMIC_SEQ_CST);
}

void *thread_main(void *arg) {
  run((int)(long)arg);
  return nullptr;
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    std::printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  plugin.tls_addr = (int *(*)(void))dlsym(h, "plugin_tls_addr");
  plugin.bump = (int (*)(int))dlsym(h, "plugin_bump");
  plugin.read_lib = (int (*)(void))dlsym(h, "plugin_read_lib_tls");
  if (!plugin.tls_addr || !plugin.bump || !plugin.read_lib) {
    std::printf("dlsym failed: %s\n", dlerror());
    return 1;
  }
  // dlsym of a TLS symbol gives the calling thread's copy.
  int *sym = (int *)dlsym(h, "plugin_tls");
  std::printf("dlsym(plugin_tls) is this thread's copy: %s\n",
              sym && sym == plugin.tls_addr() ? "yes" : "no");
  if (!sym || sym != plugin.tls_addr())
    fails++;

  pthread_t t[3];
  for (long i = 1; i <= 3; i++)
    pthread_create(&t[i - 1], nullptr, thread_main, (void *)i);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], nullptr);
  run(0);
  for (int i = 0; i < 4; i++)
    std::printf("%s\n", results[i]);
  std::printf("main thread after the others: lib_tls_int=%d tracker uses=%d\n", lib_tls_int,
              lib_tracker.uses);
  std::printf("trackers constructed: %d\n", lib_trackers_constructed());
  return fails;
}
