/* A static program (libc.a) calling two IFUNCs and libc's own (strlen and friends are IFUNCs
   in libc.a too). */
#include <stdio.h>
#include <string.h>

int fa(void);
int fb(void);

int (*volatile fb_ptr)(void) = fb;

int main(int argc, char **argv) {
  (void)argv;
  printf("fa=%d fb=%d len=%zu\n", fa(), fb_ptr(), strlen("static") + (size_t)argc - 1);
  return 0;
}
