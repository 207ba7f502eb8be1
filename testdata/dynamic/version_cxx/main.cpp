#include "api.h"
#include <cstdio>
#include <dlfcn.h>

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  api::Widget w(5);
  api::Widget *p = api::make_widget(7);
  std::printf("w.value()=%d p->value()=%d total=%d c_entry(1)=%d\n", w.value(), p->value(),
              api::make_total(), c_entry(1));
  delete p;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h)
    return 1;
  const char *names[] = {"_ZN3api6WidgetC1Ei", "_ZNK3api6Widget5valueEv",
                         "_ZN3api11make_widgetEi", "_ZN3api6Widget5countEv",
                         "_ZN3api6detail6helperEi", "_Z17unlisted_functioni", "c_entry"};
  for (const char *n : names)
    std::printf("dlsym(%s): %s\n", n, dlsym(h, n) ? "found" : "not found");
  return 0;
}
