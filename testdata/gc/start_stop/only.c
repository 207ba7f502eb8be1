/* Walks the gc_items section, referenced only through __start_gc_items/__stop_gc_items. */
#include <stdio.h>
#include "item.h"
int main(void) {
  for (struct item *p = __start_gc_items; p < __stop_gc_items; p++)
    printf("%s=%d\n", p->name, p->value);
  puts("main done");
  return 0;
}
