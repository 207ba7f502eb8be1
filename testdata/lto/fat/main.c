#include <stdio.h>
int fat_helper(int x);
extern int fat_data[8];
int main(void) {
  int s = 0;
  for (int i = 0; i < 8; i++) s += fat_helper(fat_data[i]);
  printf("fat sum = %d\n", s);
  return 0;
}
