// A small ThinLTO program whose shape depends on the LTO options: small cross-module functions
// are inlined at -O1 and above, not at -O0.
#include <stdio.h>
#include "opts.h"

int main(void) {
  struct stats st = {0};
  for (int i = 0; i < 50; i++) stats_add(&st, table_value(i));
  printf("count=%d sum=%ld min=%d max=%d mean=%.3f\n", st.count, st.sum, st.min, st.max,
         stats_mean(&st));
  printf("checksum=%08x\n", checksum(table_bytes(), table_size()));
  return 0;
}
