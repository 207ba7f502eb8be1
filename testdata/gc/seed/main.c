/* The seed example: main calls live_in_bar() in bar.o; bar.o's dead bar() is the only
   reference to zip() in libzip.a(zip.o), whose constructor prints "zip init". */
#include <stdio.h>
void live_in_bar(void);
int main(void) {
  live_in_bar();
  puts("main done");
  return 0;
}
