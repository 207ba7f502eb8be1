/* A PIE calling libc and libpv.so through its PLT, and two IFUNCs through .iplt. */
#include <stdio.h>

int pv_add(int, int);
int pv_mul(int, int);
int fa(void);
int fb(void);

/* Taken here, compared with the address taken in another way below. */
int (*volatile fb_ptr)(void) = fb;

int main(void) {
  printf("pv_add=%d pv_mul=%d\n", pv_add(2, 3), pv_mul(4, 5));
  printf("fa=%d fb=%d same=%d\n", fa(), fb_ptr(), fb_ptr == &fb);
  puts("done");
  return 0;
}
