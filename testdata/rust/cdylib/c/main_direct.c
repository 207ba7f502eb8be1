/* Linked directly against libweldrs.so. */
#include "api.h"

void rs_init(void);
int64_t rs_add(int64_t, int64_t);
size_t rs_register(const char *, int64_t);
int64_t rs_sum(void);
char *rs_describe(void);
void rs_free(char *);
int64_t rs_checked_div(int64_t, int64_t, int *);
uint64_t rs_parallel_sum(uint64_t);
uint32_t rs_thread_calls(void);
extern const int RS_VERSION;

int main(void) {
  struct rs_api a = {rs_init,        rs_add,         rs_register,     rs_sum,
                     rs_describe,    rs_free,        rs_checked_div,  rs_parallel_sum,
                     rs_thread_calls, &RS_VERSION};
  return run_all(&a);
}
