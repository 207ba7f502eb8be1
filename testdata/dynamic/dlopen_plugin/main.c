#define _GNU_SOURCE
/* Loads the plugin named by argv[1] twice with dlopen, uses it through dlsym (functions, data, a
   struct of pointers), checks dladdr and a missing symbol, and unloads it. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

const char *host_name = "the host";
int host_version(void) { return 3; }

struct plugin_api {
  int (*step)(int);
  const char *(*name)(int);
  int *value;
};

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  for (int round = 1; round <= 2; round++) {
    printf("round %d\n", round);
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      printf("dlopen failed: %s\n", dlerror());
      return 1;
    }
    int (*step)(int) = (int (*)(int))dlsym(h, "plugin_step");
    const char *(*name)(int) = (const char *(*)(int))dlsym(h, "plugin_name");
    int *value = (int *)dlsym(h, "plugin_value");
    const struct plugin_api *api = (const struct plugin_api *)dlsym(h, "plugin_api");
    if (!step || !name || !value || !api) {
      printf("dlsym failed: %s\n", dlerror());
      return 1;
    }
    int s1 = step(1);
    int s2 = step(2);
    printf("step(1)=%d step(2)=%d\n", s1, s2);
    *value = 100;
    int s3 = api->step(3);
    printf("api->step(3)=%d *api->value=%d same step=%s same value=%s\n", s3, *api->value,
           api->step == step ? "yes" : "no", api->value == value ? "yes" : "no");
    printf("names: %s %s %s\n", name(0), api->name(1), name(2));
    dlerror();
    void *missing = dlsym(h, "plugin_missing");
    printf("plugin_missing: %s\n", missing ? "found" : "not found");
    Dl_info info;
    if (dladdr((void *)step, &info) && info.dli_sname)
      printf("dladdr(step): %s in %s\n", info.dli_sname,
             strstr(info.dli_fname, "plugin") ? "the plugin" : info.dli_fname);
    else
      printf("dladdr(step) failed\n");
    fflush(stdout);
    if (dlclose(h) != 0) {
      printf("dlclose failed: %s\n", dlerror());
      return 1;
    }
  }
  return 0;
}
