/* Walks the gc_items section through __start_gc_items/__stop_gc_items. item_a (t1.c) is also
   referenced directly; item_b (t2.c) only through the section's bounds. */
#include <stdio.h>
#include "item.h"
extern struct item item_a;
int main(void) {
  printf("direct: %s\n", item_a.name);
  for (struct item *p = __start_gc_items; p < __stop_gc_items; p++)
    printf("%s=%d\n", p->name, p->value);
  return 0;
}
