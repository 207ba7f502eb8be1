/* A plugin loaded with dlopen: calls back into the program (exported with -rdynamic), holds
   function and data pointers that need dynamic relocations, runs a constructor and a destructor. */
#include <stdio.h>

extern int host_version(void);
extern const char *host_name;

static int counter;
int plugin_value = 7;
static const char *const names[] = {"alpha", "beta", "gamma"};

int plugin_step(int x) {
  counter += x;
  return counter * host_version() + plugin_value;
}

const char *plugin_name(int i) { return names[i % 3]; }

struct plugin_api {
  int (*step)(int);
  const char *(*name)(int);
  int *value;
};
const struct plugin_api plugin_api = {plugin_step, plugin_name, &plugin_value};

__attribute__((constructor)) static void plugin_ctor(void) {
  printf("plugin: loaded by %s\n", host_name);
}

__attribute__((destructor)) static void plugin_dtor(void) {
  printf("plugin: unloaded, counter=%d\n", counter);
}
